"""The house in layers (docs/architecture.md): data flows one way, engine ->
environment -> agents -> arena -> training -> applications. Every import of the
project's own modules is read from the source, at module level, inside functions and
under ``TYPE_CHECKING`` alike: none may reach a higher layer, and no modules may
import each other in a circle."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: Layer of each package prefix, lowest first (the longest matching prefix counts).
LAYERS = {"singapore_env.engine": 0, "singapore_env": 1, "agents": 2, "arena": 3,
          "training": 4, "singapore_app": 5}
PACKAGES = ("singapore_env", "agents", "arena", "training", "singapore_app")


def _modules() -> dict[str, Path]:
    """Dotted module name -> source file, for every module of the project's packages."""
    out = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


MODULES = _modules()


def layer(module: str) -> int:
    """The layer a module belongs to (the longest matching package prefix)."""
    best = max((p for p in LAYERS if module == p or module.startswith(p + ".")), key=len)
    return LAYERS[best]


def imports(module: str) -> set[str]:
    """The project modules that ``module`` imports anywhere in its source."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    return imports_in(path.read_text(), module, package)


def imports_in(source: str, module: str, package: str) -> set[str]:
    """The project modules that ``source`` (module ``module`` of ``package``) imports."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            # "from package import submodule" imports the submodule
            names = [f"{source}.{a.name}" if f"{source}.{a.name}" in MODULES else source
                     for a in node.names]
        else:
            continue
        for name in names:
            while name and name not in MODULES:
                name = name.rpartition(".")[0]
            if name and name != module:
                found.add(name)
    return found


GRAPH = {m: imports(m) for m in MODULES}


def test_the_layers_are_known():
    assert {"singapore_env.engine.game", "singapore_env.env", "agents.heuristic",
            "arena.runner", "training.bridges.sb3", "singapore_app.cli",
            "singapore_app.web.app", "singapore_app.web.api"} <= set(MODULES)
    assert layer("singapore_env.engine.rules.war") == 0 and layer("singapore_env.env") == 1
    assert layer("singapore_app.web.views") == 5  # the web app is an application


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_module_imports_a_higher_layer(module):
    up = sorted(t for t in GRAPH[module] if layer(t) > layer(module))
    assert not up, f"{module} (layer {layer(module)}) imports a higher layer: {up}"


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of ``graph`` with more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_circles():
    """(A package's ``__init__`` importing its own submodules is not a circle unless a
    submodule imports the package back.)"""
    assert not circles(GRAPH), f"import circles: {circles(GRAPH)}"


def test_the_checker_sees_imports_inside_functions_and_circles():
    """A test that cannot fail is a defect: an upward import inside a function, a
    relative import and a two-module circle are all caught."""
    source = "def f():\n    from agents.heuristic import HeuristicAgent\n"
    found = imports_in(source, "singapore_env.candidates", "singapore_env")
    assert found == {"agents.heuristic"}
    assert layer("agents.heuristic") > layer("singapore_env.candidates")
    relative = imports_in("from ..state import Frame\nfrom . import base\n",
                          "singapore_env.engine.rules.war", "singapore_env.engine.rules")
    assert relative == {"singapore_env.engine.state", "singapore_env.engine.rules.base"}
    assert circles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]


#: The engine's rules modules, seen from above only through its query face.
RULES = "singapore_env.engine.rules"


def reaches_into_the_rules(module: str, imported: set[str]) -> list[str]:
    """The rules modules ``module`` imports although it lies outside the engine."""
    if layer(module) == LAYERS["singapore_env.engine"]:
        return []
    return sorted(t for t in imported if t == RULES or t.startswith(RULES + "."))


@pytest.mark.parametrize("module", sorted(m for m in MODULES if layer(m) > 0))
def test_code_above_the_engine_reads_the_rules_only_through_the_query_face(module):
    """Agents, arena, training, applications and the env ask the engine through
    ``singapore_env.engine.query``, never ``singapore_env.engine.rules.*``."""
    inside = reaches_into_the_rules(module, GRAPH[module])
    assert not inside, f"{module} imports {inside}: use singapore_env.engine.query"


def test_the_rules_rule_can_fail():
    found = imports_in("def f():\n    from singapore_env.engine.rules.market import market_price\n",
                       "agents.heuristic", "agents")
    assert reaches_into_the_rules("agents.heuristic", found) == ["singapore_env.engine.rules.market"]
    assert reaches_into_the_rules("singapore_env.engine.query", found) == []
    assert reaches_into_the_rules("agents.heuristic", {"singapore_env.engine.rulesets"}) == []


#: The third-party libraries each layer may import (besides those of the layers below
#: it): the table of docs/architecture.md.
LIBRARIES = {
    0: {"numpy"},
    1: {"pettingzoo", "gymnasium"},
    2: {"threadpoolctl"},  # never torch: trained networks play as numpy actors
    3: {"ray", "tqdm", "pandas", "pyarrow", "openskill", "statsmodels", "scipy", "pyspiel",
        "open_spiel"},
    4: {"torch", "stable_baselines3", "sb3_contrib", "matplotlib"},
    5: {"click", "starlette", "uvicorn", "h11", "selenium", "optuna", "cmaes"},
}


def third_party(source: str) -> set[str]:
    """The top-level names of the libraries ``source`` imports (not the standard
    library's, not the project's)."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names = [node.module]
        else:
            continue
        found |= {name.split(".")[0] for name in names}
    return found - set(sys.stdlib_module_names) - set(PACKAGES) - {"__future__"}


def libraries_allowed(level: int) -> set[str]:
    """What a module of layer ``level`` may import: its layer's libraries and those below."""
    return set().union(*(LIBRARIES[k] for k in range(level + 1)))


@pytest.mark.parametrize("module", sorted(MODULES))
def test_each_layer_uses_only_its_libraries(module):
    extra = third_party(MODULES[module].read_text()) - libraries_allowed(layer(module))
    assert not extra, f"{module} (layer {layer(module)}) imports {sorted(extra)}"


def test_the_library_rule_can_fail():
    source = "import numpy as np\nimport torch\nfrom os import path\nfrom . import base\n"
    assert third_party(source) == {"numpy", "torch"}
    assert "torch" not in libraries_allowed(1) and "torch" in libraries_allowed(4)


def test_the_layout_names_every_module():
    """docs/architecture.md's Layout table names every module file of its layer (a
    package folder, such as ``heuristic/``, stands for its modules)."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    layout = text[text.index("## Layout"):text.index("## Why these libraries")]
    rows = {line.split("|")[2].strip(" `"): line for line in layout.splitlines()
            if line.startswith("| ") and line.count("|") >= 4}
    missing = []
    for path in MODULES.values():
        relative = path.relative_to(ROOT)
        folder = f"{relative.parts[0]}/" if relative.parts[0] != "singapore_env" else (
            "singapore_env/engine/" if relative.parts[1:2] == ("engine",) else "singapore_env/")
        inner = relative.relative_to(folder).parts
        if len(inner) == 1 and path.name == "__init__.py":
            continue
        named = f"`{inner[0]}/`" if len(inner) > 1 else f"`{inner[0]}`"
        if named not in rows[folder]:
            missing.append(str(relative))
    assert not missing, missing


#: The longest a module of the project's packages may be: past it, a file is usually
#: two concepts.
MOST_LINES = 500


def test_no_module_is_two_concepts_long():
    long = {str(p.relative_to(ROOT)): n for p in MODULES.values()
            if (n := len(p.read_text().splitlines())) > MOST_LINES}
    assert not long, long


def test_training_is_grouped_by_concept():
    """``training/`` keeps a few modules at its top and the rest in subpackages, each
    module opening with what it is for."""
    top = [p.name for p in (ROOT / "training").glob("*.py")]
    assert len(top) <= 8, top
    assert [p.name for p in (ROOT / "training").iterdir() if (p / "__init__.py").exists()]
    for name, path in MODULES.items():
        if name.startswith("training"):
            assert ast.get_docstring(ast.parse(path.read_text())), name
