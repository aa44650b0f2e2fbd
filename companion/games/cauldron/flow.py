"""What Cauldron does by itself after each command: the Grand Infuser at 35, milestones for the
first seat to reach them, opening the turn order, closing the Harvest (spoiling pools, resetting
abilities), moving the Market on. Every event returned here is logged as automatic."""

from __future__ import annotations

from companion.core.model import Event
from companion.games.cauldron import contest
from companion.games.cauldron import data as d
from companion.games.cauldron import state as st
from companion.games.cauldron.state import State


def _nearest_first(state: State, seats: list[int]) -> list[int]:
    """Seats in clockwise order from the seat whose turn it is (seat 1 when nobody's)."""
    n = len(state["players"])
    start = st.turn(state) or 0
    return sorted(seats, key=lambda s: (s - start) % n)


def turn_order_contest(state: State) -> dict:
    """Phase 3 as the Omen and variants say: a seat named by the Omen starts; the seat with
    the fewest or most Magik starts (tied seats roll, lowest/highest roll); or every seat rolls
    and the highest starts."""
    first = (state["harvest"]["omen"] or {}).get("first")
    if isinstance(first, int):
        return contest.new([first], "high", "omen", first)
    if first is None and d.LESS_LUCK in state["variants"]:
        first = "lsp"
    if first in ("lsp", "hsp"):
        seats, magik = st.tie(state, first)
        return contest.new(seats, "low" if first == "lsp" else "high", first, magik=magik)
    return contest.new(list(range(len(state["players"]))), "high", "roll")


def _milestone(state: State) -> Event | None:
    marks = state["milestones"]
    todo = sorted((m for m in d.MILESTONES if not marks[m]["reached"] and marks[m]["position"]),
                  key=lambda m: marks[m]["position"])
    for key in todo:
        position = marks[key]["position"]
        reached = [i for i, p in enumerate(state["players"]) if p["magik"] >= position]
        if reached:
            most = max(state["players"][i]["magik"] for i in reached)
            seat = _nearest_first(state, [i for i in reached
                                          if state["players"][i]["magik"] == most])[0]
            return Event("milestone_reached", {"milestone": key, "seat": seat,
                                               "position": position})
    return None


def _outlived_ties(state: State) -> Event | None:
    """A roll-off belongs to the tie it was opened for: a Magik change that ends or changes the
    tie makes it void (it takes no more dice; a new tie needs a new roll-off). Turn order by
    the fewest or most Magik, still being rolled, opens again among the seats tied now."""
    roll = state["rolloff"]
    if st.outlived(state, roll):
        return Event("rolloff_voided", {"kind": roll["rule"], "contenders": roll["contenders"]})
    order = state["harvest"]["order"]
    if (state["season"] == "harvest" and st.phase(state) == "turn_order"
            and st.outlived(state, order)):
        again = turn_order_contest(state)
        return Event("turn_order_opened", {k: again[k] for k in
                                           ("rule", "contenders", "want", "first", "magik")})
    return None


def flow(state: State) -> list[Event]:
    if not state["begun"]:
        return []
    stale = _outlived_ties(state)  # even after the winning brew: no die may go to it
    if stale is not None:
        return [stale]
    if state["over"]:
        return []
    for seat, player in enumerate(state["players"]):
        if player["magik"] >= d.WIN:
            return [Event("game_over", {"winner": seat, "magik": player["magik"]})]
    reached = _milestone(state)
    if reached is not None:
        return [reached]
    harvest = state["harvest"]
    n = len(state["players"])
    if state["season"] == "harvest":
        if harvest["filled"] and harvest["order"] is None:
            order = turn_order_contest(state)
            return [Event("turn_order_opened", {k: order[k] for k in
                                                ("rule", "contenders", "want", "first", "magik")})]
        if harvest["gatherer_done"]:
            gatherer = harvest["last_gatherer"]
            spoiled = [{"seat": i, "pool": dict(p["pool"])}
                       for i, p in enumerate(state["players"]) if p["pool"]]
            return [Event("harvest_closed", {"gatherer": gatherer, "spoiled": spoiled,
                                             "market_starter": st.market_starter(state, gatherer)})]
        return []
    market = state["market"]
    if market["done"] >= n:
        return [Event("market_closed", {"season": state["season_number"]})]
    if market["purchases"] >= st.purchase_limit(state):
        seat = (market["starter"] + market["done"]) % n
        return [Event("market_turn_ended", {"seat": seat, "passed": False})]
    return []
