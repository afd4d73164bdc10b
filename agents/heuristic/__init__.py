"""A rule-based player for every seat of 1819 Singapore.

``HeuristicAgent`` plays at engine level (``choose(game, seat)``). Every question is
answered by a small rule; the main turn decisions (Leader space, Leader Action, the two
Actions) are chosen by scoring each legal decision in *VP equivalents* and taking the
best one. The exchange rates (a dollar, a Storehouse token, an Influence token, an
Action) depend on the round and on the seat's Legacies.

What it knows of the game:

* **buying**: a Market card is worth its instant effects, its Action over the rounds
  left (for free when it joins a Community, otherwise at the price of an Action), its
  Tax tokens over the Upkeeps left (discounted for the risk of an outlawing Decree),
  its boosts and End Game VP, and the Legacy steps it brings -- minus the price and
  the Public Works upkeep burden it adds;
* **Influence**: a one-ply lookahead of the placement: an exact model of the walk
  (start space, one token per open space, optional Storehouse drops; checked against
  the engine in ``tests/test_agents_heuristic.py``) evaluates every start and every
  number of drops by the VP scored at once plus the value of the tokens left on the
  loop. The placement involves no hidden information and no dice, so the model reads
  the public board only (no clone, hence no :func:`agents.determinize.determinize`
  needed; an agent that simulates on a clone must determinize it first);
* **Population** opens the faction's x2/x3 districts; Communities are built with the
  connections and activated every round;
* **Decrees** outlaw the vices the others own (+2 VP, Reformer Legacy); **War** only
  when the expected spoils beat its cost, against the defender's visible strength
  (revealed cards, War boosts, hand size and the unseen pool of its faction);
* **Conflicts**: a Battle card (and then dollars, 1 VP each) is contributed when that
  pays, Battle cards are bought while Conflict Events may still come;
* **Upkeep**: fund when affordable, else close the least useful Public Works.

It only reads what its seat may see: the public board, its own hand, the sizes of the
other hands and the *contents* (never the order) of the decks and of the unseen Battle
cards, which follow from what is public (``tests/test_agents_heuristic.py`` checks that
every decision is the same in determinized worlds). Ties are broken with the agent's
own RNG, so a fixed seed gives a fixed game. The exchange rates are in
:data:`DEFAULT_PARAMS` (tuned by self-play A/B matches).

The agent and its scoring of the turn's main decisions are in
:mod:`agents.heuristic.agent`, its answers to the other questions in
:mod:`agents.heuristic.answers`; their parts live beside them: the seat's view and
exchange rates (:mod:`agents.heuristic.context`), the
Influence model (:mod:`agents.heuristic.influence`), the values of cards, Wars and
Decrees (:mod:`agents.heuristic.values`), small shared choices
(:mod:`agents.heuristic.choices`) and the other rulesets' questions
(:mod:`agents.heuristic.simulation`, :mod:`agents.heuristic.first_edition`).
"""

from .agent import OWN_ACTION_SCORES, SCORED_QUESTIONS, HeuristicAgent
from .context import DEFAULT_PARAMS, Ctx
from .influence import influence_plan

__all__ = ["DEFAULT_PARAMS", "OWN_ACTION_SCORES", "SCORED_QUESTIONS", "Ctx", "HeuristicAgent",
           "influence_plan"]
