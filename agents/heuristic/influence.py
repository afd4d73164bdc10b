"""The heuristic player's Influence model: an exact model of the placement walk (start
space, one token per open space, optional Storehouse drops) that values every start
and every number of drops by the VP scored at once plus the value of the tokens left
on the loop (checked against the engine in ``tests/test_agents_heuristic.py``)."""

from __future__ import annotations

from singapore_env.engine.content import SEAT_FACTION
from singapore_env.engine.decisions import N_LOOP, Decision, Kind
from singapore_env.engine.query import district_open, may_access

from .context import PASS, YES, Ctx


def district_value(ctx: Ctx, space: int, tokens: list[int]) -> float:
    """Value for ``ctx.seat`` of one district holding ``tokens`` (per seat) once the
    placement ends: scored now if it reaches the threshold, else potential."""
    b = ctx.c.board
    fac = b.loop_faction[space]
    mult = b.loop_multiplier[space]
    me = ctx.seat
    if sum(tokens) >= ctx.g.cfg.district_threshold:
        v = ctx.p["ship_value"] if b.loop_ship[space] else 0.0
        if fac == ctx.fac or ctx.scores_all:
            return v + mult * tokens[me]
        return v - ctx.p["opp_vp_weight"] * mult * sum(tokens[p] for p in range(4)
                                              if SEAT_FACTION[p] == fac)
    if fac == ctx.fac or ctx.scores_all:
        rl = ctx.rounds_left
        pf = 0.8 if rl >= 3 else 0.6 if rl == 2 else 0.3
        return tokens[me] * mult * pf
    return -0.15 * tokens[me] * mult


def token_value(ctx: Ctx) -> float:
    """Value of one Influence token placed now (from the placement model), once per Ctx."""
    if ctx.iv_cache is None:
        base = influence_plan(ctx, 0)[0]
        best = influence_plan(ctx, 3)[0]
        ctx.iv_cache = max(0.15, (best - base) / 3)
    return ctx.iv_cache


def influence_plan(ctx: Ctx, n: int, pos: int = -1, asking: bool = False,
                   detail: bool = False, options: bool = False):
    """Best placement of ``n`` tokens: ``(value, decision)`` (see :func:`_plan`).

    A decision asks for the same plain placements many times (every card that brings
    Influence asks for ``n`` tokens and for none), so those are kept in ``ctx.plans``;
    the game does not change while a Ctx lives."""
    if detail or options:
        return _plan(ctx, n, pos, asking, detail, options)
    key = (n, pos, asking)
    found = ctx.plans.get(key)
    if found is None:
        found = ctx.plans[key] = _plan(ctx, n, pos, asking)
    return found


def _plan(ctx: Ctx, n: int, pos: int = -1, asking: bool = False,
          detail: bool = False, options: bool = False):
    """Best placement of ``n`` tokens: ``(value, decision)``.

    ``pos = -1``: choose the start (decision INFLUENCE_START). ``asking``: the walk is
    at Storehouse ``pos`` and asks whether to drop (decision YES / PASS). The value is
    the board value after the placement and the scoring (see :func:`district_value`)
    plus the Storehouse drops.

    The walk is modelled exactly: from the start, every open district passed takes a
    token and every Storehouse passed may take one. Whatever the order of the drops, the
    outcome only depends on the number ``d`` of district tokens (they go to the first
    ``d`` districts of the walk) and on the number of drops on each Storehouse, which
    must be passed before the walk's ``d+1``-th district. So every start is evaluated
    for every ``d`` in one pass, with drops on the own Storehouse first.

    With ``detail``, a third item gives the predicted outcome of the chosen plan:
    ``{"districts": [...], "storehouse": [...]}`` (the board after the scoring).
    With ``options``, the value of every answer instead: ``[(value, decision), ...]``
    (every start; asking: dropping here, and walking on with every token).
    """
    g, s, b = ctx.g, ctx.s, ctx.c.board
    me = ctx.seat
    open_ = [b.loop_kind[sp] == "district" and district_open(g, sp) for sp in range(N_LOOP)]
    cur = {sp: list(s.districts[sp * 4: sp * 4 + 4]) for sp in range(N_LOOP) if open_[sp]}
    base_vals = {sp: district_value(ctx, sp, t) for sp, t in cur.items()}
    base_total = sum(base_vals.values())
    own_drop = ctx.tv
    opp_drop = -0.25

    def evaluate(pre_token: int, after: int, n_left: int, pass_at: int):
        """Best (value, (d, own drops, opp drops), walk districts): a token already on
        district ``pre_token`` (or -1), then ``n_left`` tokens along the spaces after
        ``after``; ``pass_at``: the walk stands on that Storehouse and may drop there."""
        dists = []
        avail = []  # (own, opp) Storehouse passes before the (d+1)-th district visit
        own = opp = 0
        if pass_at >= 0:
            if b.loop_faction[pass_at] == ctx.store_fac:
                own += 1
            else:
                opp += 1
        p = after
        while len(avail) <= n_left:
            p = (p + 1) % N_LOOP
            if b.loop_kind[p] == "storehouse":
                if not may_access(g, me, b.loop_faction[p]):
                    continue
                if b.loop_faction[p] == ctx.store_fac:
                    own += 1
                else:
                    opp += 1
            elif open_[p]:
                avail.append((own, opp))
                dists.append(p)
        counts = {sp: list(t) for sp, t in cur.items()}
        vals = dict(base_vals)
        total = base_total
        if pre_token >= 0:
            counts[pre_token][me] += 1
            nv = district_value(ctx, pre_token, counts[pre_token])
            total += nv - vals[pre_token]
            vals[pre_token] = nv
        best, plan = -1e9, (0, 0, 0)
        for d in range(n_left + 1):
            if d > 0:
                sp = dists[d - 1]
                counts[sp][me] += 1
                nv = district_value(ctx, sp, counts[sp])
                total += nv - vals[sp]
                vals[sp] = nv
            drops = n_left - d
            ao, ap = avail[d]
            ko = min(drops, ao)
            kp = drops - ko
            if kp > ap:
                continue
            v = total + ko * own_drop + kp * opp_drop
            if v > best + 1e-9:
                best, plan = v, (d, ko, kp)
        return best, plan, dists

    def outcome(pre_token, plan, dists, drop_on):
        d, ko, kp = plan
        dist = list(s.districts)
        store = list(s.storehouse)
        for sp in ([pre_token] if pre_token >= 0 else []) + dists[:d]:
            dist[sp * 4 + me] += 1
        store[ctx.store_fac if ko else 0] += ko * (1 + ctx.drop_extra)
        store[1 - ctx.store_fac if kp else 0] += kp
        if drop_on >= 0:
            own = b.loop_faction[drop_on] == ctx.store_fac
            store[b.loop_faction[drop_on]] += 1 + (ctx.drop_extra if own else 0)
        for sp in range(N_LOOP):
            if open_[sp] and sum(dist[sp * 4: sp * 4 + 4]) >= g.cfg.district_threshold:
                dist[sp * 4: sp * 4 + 4] = [0, 0, 0, 0]
        return {"districts": dist, "storehouse": store}

    if n <= 0:
        return (base_total, PASS, outcome(-1, (0, 0, 0), [], -1)) if detail \
            else (base_total, PASS)
    if asking and options:
        mine = b.loop_faction[pos] == ctx.store_fac
        drop = (own_drop if mine else opp_drop) + evaluate(-1, pos, n - 1, -1)[0]
        return [(evaluate(-1, pos, n, -1)[0], PASS), (drop, YES)]
    if asking:
        value, plan, dists = evaluate(-1, pos, n, pos)
        mine = b.loop_faction[pos] == ctx.store_fac
        d = YES if (plan[1] if mine else plan[2]) > 0 else PASS
        return (value, d, outcome(-1, plan, dists, -1)) if detail else (value, d)
    best, best_d, best_args = -1e9, None, None
    scored = []
    for sp in range(N_LOOP):
        if b.loop_kind[sp] == "storehouse":
            if not may_access(g, me, b.loop_faction[sp]):
                continue
            forced = own_drop if b.loop_faction[sp] == ctx.store_fac else opp_drop
            v, plan, dists = evaluate(-1, sp, n - 1, -1)
            v += forced
            args = (-1, plan, dists, sp)
        elif open_[sp]:
            v, plan, dists = evaluate(sp, sp, n - 1, -1)
            args = (sp, plan, dists, -1)
        else:
            continue
        scored.append((v, Decision(Kind.INFLUENCE_START, sp)))
        if v > best + 1e-9:
            best, best_d, best_args = v, Decision(Kind.INFLUENCE_START, sp), args
    if options:
        return scored
    if detail:
        return best, best_d, outcome(*best_args)
    return best, best_d


def store_scores(ctx: Ctx, n: int, legal) -> list[tuple[float, Decision]]:
    """Storing ``k`` of ``n`` Influence tokens: the placement of the rest plus the
    stored tokens' value (a little less than placed ones)."""
    return [(influence_plan(ctx, n - d.arg)[0] + d.arg * token_value(ctx) * 0.9 - 0.01 * d.arg, d)
            for d in legal]


def influence_scores(ctx: Ctx, f, legal) -> list[tuple[float, Decision]]:
    """The value of every answer to an Influence placement question."""
    n = f.d.n
    kinds = {d.kind for d in legal}
    if Kind.STORE in kinds:
        return store_scores(ctx, n, legal)
    if Kind.INFLUENCE_START in kinds:
        return influence_plan(ctx, n, options=True)
    return influence_plan(ctx, n, pos=f.d.pos, asking=True, options=True)


def influence_value(ctx: Ctx, n: int) -> float:
    """Gain of placing ``n`` tokens now (relative to placing none)."""
    if n <= 0:
        return 0.0
    return influence_plan(ctx, n)[0] - influence_plan(ctx, 0)[0]
