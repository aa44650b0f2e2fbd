"""How much shorter a Witch's Brew round is with hands on the phones, in steps: the same seeded
tables (3 to 6 seats) played without hands and with every seat's hand known; a step is one
command the table enters (an announcement, an answer, an effect's entry). The passes the
companion makes itself are the answers the table no longer makes. Counts, not times: run
``python -m benchmarks.hands_round`` (it prints the figures for docs/witchs-brew.md)."""

from __future__ import annotations

from statistics import mean


def rounds_and_steps(session) -> tuple[int, int, int]:
    """(rounds, answers the table made, passes the companion made) over a finished game."""
    rounds = table = auto = 0
    for step in session.done_steps():
        for e in step.events:
            if e.type == "round_resolved":
                rounds += 1
            elif e.type == "answered":
                if e.automatic:
                    auto += 1
                else:
                    table += 1
    return rounds, table, auto


def measure(seeds: range = range(1, 21)) -> list[dict[str, float]]:
    from tests.support.hands_autoplay import play_with_hands

    rows = []
    for n in range(3, 7):
        setup = {"game": "witchs_brew", "players": ["Anna", "Barb", "Carl", "Dora", "Emil",
                                                    "Fay"][:n]}
        without, with_ = [], []
        for seed in seeds:
            for seats, out in ((set(), without), (set(range(n)), with_)):
                session, commands = play_with_hands(setup, seats, seed=seed)
                rounds, table, auto = rounds_and_steps(session)
                chosen = sum(c.do == "choose_hand" for c in commands)
                plays = len(commands) - chosen
                out.append((table / rounds, auto / rounds, plays / rounds, chosen / rounds))
        rows.append({
            "seats": n,
            "answers_per_round_before": mean(r[0] for r in without),
            "answers_per_round_with_hands": mean(r[0] for r in with_),
            "passes_by_the_companion_per_round": mean(r[1] for r in with_),
            "steps_per_round_before": mean(r[2] for r in without),
            "steps_per_round_with_hands": mean(r[2] for r in with_),
            "hand_choices_per_round": mean(r[3] for r in with_),
        })
    return rows


def main() -> None:
    print("Witch's Brew: steps per round the table enters, 20 seeded games per table size")
    print("seats  answers before  answers with hands  companion's passes  "
          "steps before  steps with hands (+ hand choices)")
    for r in measure():
        print(f"{r['seats']:>5}  {r['answers_per_round_before']:>14.2f}  "
              f"{r['answers_per_round_with_hands']:>18.2f}  "
              f"{r['passes_by_the_companion_per_round']:>18.2f}  "
              f"{r['steps_per_round_before']:>12.2f}  {r['steps_per_round_with_hands']:>16.2f}"
              f" (+{r['hand_choices_per_round']:.2f})")


if __name__ == "__main__":
    main()
