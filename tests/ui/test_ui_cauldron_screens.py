"""Every Cauldron screen and panel renders at 800x480 and 1280x720; screenshots are saved in
screenshots/ (cauldron_*) to be looked at."""

from __future__ import annotations

from companion.core.model import Command
from ui.games.cauldron.seats import PoolChip
from ui_helpers import both_sizes, dialogs, find, frames, resize, tap, tap_title, texts

MILESTONES = {"magik_overflow": 12, "rituals_of_power": 18, "the_breaking": 27}
FOUR = [{"name": "Anna", "character": "witch"}, {"name": "Barb", "character": "druid"},
        {"name": "Carl", "character": "trickster"}, {"name": "Daniel"}]
SIX = FOUR + [{"name": "Emma", "character": "shaman"}, {"name": "Fiona", "character": "wizard"}]


def card(name, ingredients, kind="basic", gain=4, quick=False, spell=False):
    return {"name": name, "kind": kind, "yield": gain, "ingredients": ingredients,
            "quick": quick, "spell": spell}


def start(app, players=FOUR, variants=(), milestones=MILESTONES):
    setup = {"game": "cauldron", "players": list(players), "variants": list(variants)}
    if milestones:
        setup["milestones"] = dict(milestones)
    assert app.start_game(setup) is None
    frames()
    return app.session


def deal(s, names):
    for i, who in enumerate(names):
        easy = card(f"Draught {i}", ["spider_web", "frog_legs"], kind="easy", gain=3)
        basic = card(f"Elixir {i}", ["spider_web", "spider_web", "any"], quick=i == 0)
        s.execute(Command("add_potion", who, {"potion": easy}))
        s.execute(Command("add_potion", who, {"potion": basic}))


def to_turns(s, names, first="Anna"):
    s.execute(Command("begin"))
    s.execute(Command("omen", args={"text": "Frost: one fewer Frog Legs",
                                    "produce": {"frog_legs": -1}}))
    s.execute(Command("fill_board"))
    for i, who in enumerate(names):
        s.execute(Command("turn_order_roll", who, {"value": 6 if who == first else 2 + i % 3}))


def to_the_market(app, s, last: str) -> None:
    """The board emptied but one Field of ``last``, which Anna gathers before she ends her
    turn: the Harvest is over and the Market opens, Barb buying first."""
    left = s.state["ingredients_left"]
    s.execute(Command("adjust", args={"board": {k: (1 if k == last else 0) - v
                                                for k, v in left.items() if v}}))
    s.execute(Command("gather", "Anna", {"ingredient": last}))
    s.execute(Command("end_turn", "Anna"))
    frames()
    assert app.prompt["phase"] == "market" and app.prompt["turn"] == "Barb"


def screen(app):
    return app.screens.get_screen("cauldron")


def test_setup_panels_render(app):
    app.new_game("cauldron")
    frames()
    assert app.screens.current == "cauldron_setup"
    setup = app.screens.get_screen("cauldron_setup")
    both_sizes("cauldron_setup_players")
    setup.change_count(+2)
    setup.set_character(setup.rows[0], "witch")
    setup.set_character(setup.rows[4], "wizard")
    frames()
    both_sizes("cauldron_setup_six_seats")
    setup.pick_character(setup.rows[1])
    frames()
    both_sizes("cauldron_setup_character", before=lambda: setup.pick_character(setup.rows[1]))
    setup.show_panel("rules")
    setup.toggle_variant("quick")
    setup.toggle_variant("simple")
    setup.start()
    frames()
    assert "Simple Game does not use the Wizard" in setup.error
    both_sizes("cauldron_setup_rules")


def seats_show_their_counts(app, names) -> None:
    """The seats' cards were once empty under their names in the Omen's and the board's
    phase (drawn compact: name and Magik alone). At 800x480 and 1280x720 each card shows its
    Potions and Spells, the counts the table reads from a chair."""
    from ui.games.cauldron.seats import CauldronSeatCard

    for size in ((800, 480), (1280, 720)):
        resize(*size)
        cards = [w for w in find(lambda w: isinstance(w, CauldronSeatCard), app.root)
                 if w.get_root_window() is not None]
        assert [c.player for c in cards][::-1] == names or sorted(c.player for c in cards) \
            == sorted(names)
        for card in cards:
            counters = card.ids.counters
            assert counters.height > 0 and counters.opacity == 1, (size, card.player)
            assert card.ids.potions.text == str(card.potions), card.player
    resize(800, 480)


def test_table_phases_render(app):
    names = [p["name"] for p in FOUR]
    s = start(app)
    assert app.screens.current == "cauldron"
    assert screen(app).mode == "phase"
    both_sizes("cauldron_setup_phase")
    deal(s, names[:1])
    both_sizes("cauldron_potion_entry", before=lambda: screen(app).open_cards())
    deal(s, names[1:])
    s.execute(Command("begin"))
    frames()
    both_sizes("cauldron_omen")
    seats_show_their_counts(app, names)
    both_sizes("cauldron_omen_entry", before=screen(app).phase_panel.open_omen)
    s.execute(Command("omen", args={"text": "Frost", "produce": {"frog_legs": -1}}))
    frames()
    assert "Fill the board: 5 Spider Web, 4 Frog Legs, 5 Poisonous Mushroom" in app.prompt["text"]
    both_sizes("cauldron_fill")
    seats_show_their_counts(app, names)
    s.execute(Command("fill_board"))
    s.execute(Command("turn_order_roll", "Anna", {"value": 5}))
    s.execute(Command("turn_order_roll", "Barb", {"value": 5}))
    s.execute(Command("turn_order_roll", "Carl", {"value": 2}))
    frames()
    assert screen(app).mode == "dice"
    both_sizes("cauldron_dice_turn_order")
    screen(app).show_track = True
    frames()
    assert screen(app).mode == "track"
    both_sizes("cauldron_track")
    screen(app).show_track = False
    for who, value in (("Daniel", 1), ("Anna", 6), ("Barb", 3)):
        s.execute(Command("turn_order_roll", who, {"value": value}))
    s.execute(Command("gather", "Anna", {"ingredients": ["spider_web", "spider_web"]}))
    frames()
    assert screen(app).mode == "turn"
    both_sizes("cauldron_turn_gathered")
    # the seat card says "Web 2": the word small, the count in big digits
    chips = [(c.word, c.count) for c in find(lambda w: isinstance(w, PoolChip),
                                             screen(app).seats.cards()[0])]
    assert chips == [("Web", "2")]
    screen(app).turn_panel.choose("brew")
    both_sizes("cauldron_turn_brew")
    s.execute(Command("end_turn", "Anna"))
    frames()
    # Anna's Brew choices closed with her turn: Barb's turn shows the seats, not an empty panel
    assert screen(app).seats in screen(app).ids.upper.children and not screen(app).headline_only
    both_sizes("cauldron_turn_gather", portrait=True)
    screen(app).turn_panel.choose("steal")
    screen(app).turn_panel._target("Anna")
    frames()
    both_sizes("cauldron_turn_steal")
    s.execute(Command("steal", "Barb", {"target": "Anna", "ingredient": "spider_web"}))
    frames()
    assert screen(app).mode == "dice"
    said = [screen(app).ask, screen(app).detail, screen(app).dice.heading]
    assert sum("4 or more" in words for words in said) == 1, said   # said once, large
    assert "Omen: Frost" in screen(app).detail                      # what only the detail says
    both_sizes("cauldron_dice_steal", portrait=True)
    both_sizes("cauldron_seat_entry", before=lambda: screen(app).open_seat(0))
    # the seat card says "Web 2"; its dialog, one tap away, names the pool whole
    assert screen(app).seats.cards()[0].pool == [("spider_web", 2)]
    screen(app).open_seat(0)
    frames()
    (seat,) = dialogs()
    assert seat.subtitle.endswith("\nPool: 2 Spider Web")
    seat.dismiss()


def test_market_and_track_render(app):
    names = [p["name"] for p in SIX]
    s = start(app, SIX, variants=["advanced"], milestones={**MILESTONES, "rituals_of_power": 30,
                                                           "the_breaking": 33})
    deal(s, names)
    to_turns(s, names)
    s.execute(Command("adjust_magik", "Barb", {"delta": 6, "source": "correction"}))
    s.execute(Command("adjust_magik", "Carl", {"delta": 24, "source": "correction"}))
    left = s.state["ingredients_left"]
    s.execute(Command("adjust", args={"board": {k: (1 if k == "spider_web" else 0) - v
                                                for k, v in left.items() if v}}))
    frames()
    assert screen(app).mode == "turn" and len(screen(app).seats.cards()) == 6
    both_sizes("cauldron_turn_six_seats")          # six seats: who acts, what now, each seat
    s.execute(Command("gather", "Anna", {"ingredient": "spider_web"}))
    frames()
    both_sizes("cauldron_turn_six_seats_gathered")
    s.execute(Command("end_turn", "Anna"))
    frames()
    assert app.prompt["phase"] == "market"
    assert screen(app).mode == "market"
    # an offer open now is "available" in the action colour, as the action row's
    from ui import theme
    from ui.games.cauldron.market import OfferCard
    cards = find(lambda w: isinstance(w, OfferCard), app.root)
    assert any(c.ok for c in cards)
    for card in cards:
        assert theme.same_colour(card.border, theme.ACTION if card.ok else theme.LINE)
    both_sizes("cauldron_market")
    s.execute(Command("pass", "Barb"))
    frames()
    both_sizes("cauldron_market_alchemy")
    screen(app).show_track = True
    frames()
    both_sizes("cauldron_track_six_seats")
    # the milestones by name on the track, where they are, and who used one; at 800x480 the
    # tags at the detail size hold each name's last word
    assert screen(app).track.legend_text == [
        "12 Overflow (Carl)", "30 Rituals", "33 Breaking", "35 wins"]
    resize(1280, 720)
    frames()
    assert screen(app).track.legend_text == [
        "12 Magik Overflow (Carl)", "30 Rituals of Power", "33 The Breaking", "35 wins"]
    resize(800, 480)
    screen(app).show_track = False


def test_six_lanes_with_long_names_draw_every_name_whole(app):
    from ui.games.cauldron import track

    players = [{"name": n} for n in ("Maximiliane", "Bartholomew", "Carl", "Dorothea",
                                     "Emmanuelle", "Fitzgerald")]
    start(app, players)
    track.SHORTENED.clear()
    track._textures.clear()
    screen(app).show_track = True
    frames()
    both_sizes("cauldron_track_long_names")
    assert screen(app).mode == "track"
    assert not track.SHORTENED & {p["name"] for p in players}
    assert not track.SHORTENED & set(screen(app).track.legend_text)
    screen(app).show_track = False


def test_milestone_tags_keep_their_order_inside_the_row_and_never_overlap():
    from ui.games.cauldron.track import spread

    # three tags crowded at the end of a 700-wide row: pushed back left, in order
    lefts = spread([600, 640, 690], [200, 160, 70], (0, 700), 6)
    rights = [left + w for left, w in zip(lefts, [200, 160, 70])]
    assert rights[-1] == 700 and all(r + 6 <= n for r, n in zip(rights, lefts[1:]))
    # room enough: each centred on its anchor
    assert spread([100, 400], [100, 100], (0, 700), 6) == [50, 350]


def test_game_over_renders_the_podium(app):
    names = [p["name"] for p in FOUR]
    s = start(app)
    deal(s, names)
    to_turns(s, names)
    s.execute(Command("adjust_magik", "Anna", {"delta": 32}))
    s.execute(Command("adjust_magik", "Barb", {"delta": 10}))
    s.execute(Command("adjust_magik", "Carl", {"delta": 10}))
    s.execute(Command("adjust", "Anna", {"pool": {"spider_web": 2, "frog_legs": 1}}))
    s.execute(Command("brew", "Anna", {"potion": "Elixir 0", "any": ["frog_legs"]}))
    frames()
    assert app.screens.current == "cauldron_result"
    result = app.screens.get_screen("cauldron_result")
    rows = [w for w in result.ids.standings.children[::-1]]
    assert [(r.place, r.name) for r in rows] == [(1, "Anna"), (2, "Barb"), (2, "Carl"),
                                                 (4, "Daniel")]
    words = texts(rows[0])
    assert any("Grand Infuser (Witch)" in t and "1 Potion brewed" in t
               and "triggered Magik Overflow, Rituals of Power, The Breaking" in t for t in words)
    assert "38 Magik" in words and "4th" in texts(rows[3])
    assert result.length.startswith("Played 0 min (")
    both_sizes("cauldron_result")
    assert not dialogs()
    tap_title("Play again", result)              # the same seats, characters and variants
    assert app.screens.current == "cauldron_setup"
    setup = app.screens.get_screen("cauldron_setup")
    assert setup.count == 4
    assert [r.ids.name.text for r in setup.rows[:4]] == names
    assert [r.character for r in setup.rows[:4]] == ["witch", "druid", "trickster", ""]
    assert setup.steppers["rituals_of_power"].value == 18
    assert setup.setup()["players"] == [
        {"name": "Anna", "character": "witch"}, {"name": "Barb", "character": "druid"},
        {"name": "Carl", "character": "trickster"}, {"name": "Daniel"}]


def test_play_again_keeps_variants_and_settings(app):
    start(app, ["Anna", "Barb", "Carl"], variants=["quick"])
    app.play_again()
    frames()
    setup = app.screens.get_screen("cauldron_setup")
    assert app.screens.current == "cauldron_setup"
    assert setup.count == 3 and setup.variants == ["quick"]
    assert [r.ids.name.text for r in setup.rows[:3]] == ["Anna", "Barb", "Carl"]


def test_quick_game_milestones_spells_cellars_and_closing_render(app):
    names = ["Anna", "Barb", "Carl"]
    s = start(app, names, variants=["quick", "less_luck"], milestones=None)
    assert app.prompt["phase"] == "milestones" and screen(app).mode == "phase"
    both_sizes("cauldron_track_milestones")
    panel = screen(app).phase_panel
    panel.steppers["rituals_of_power"].value = 16
    panel.set_milestones()
    assert s.state["milestones"]["rituals_of_power"]["position"] == 16
    s.execute(Command("begin"))
    s.execute(Command("omen", args={"text": ""}))
    s.execute(Command("fill_board"))
    while "die" in app.prompt["inputs"]:
        s.execute(Command("roll", args={"value": 1 + len(s.done_steps()) % 6}))
    who = app.prompt["turn"]
    s.execute(Command("adjust", who, {"pool": {"dragon_egg": 1, "snake_skin": 1}}))
    s.execute(Command("move_ingredient", who, {"ingredient": "dragon_egg", "to": "cellar"}))
    frames()
    screen(app).turn_panel.choose("cellar")
    content = screen(app).turn_panel.choices.ids.content
    assert "Dragon Egg" in [b.title for b in content.walk() if hasattr(b, "title")]
    both_sizes("cauldron_turn_cellar")
    screen(app).turn_panel.choose("spell")
    both_sizes("cauldron_turn_spell")
    left = s.state["ingredients_left"]
    kind = next(k for k, v in left.items() if v)
    s.execute(Command("adjust", args={"board": {k: (1 if k == kind else 0) - v
                                                for k, v in left.items() if v}}))
    s.execute(Command("gather", who, {"ingredient": kind}))
    frames()
    assert app.prompt["phase"] == "closing"
    assert screen(app).seats in screen(app).ids.upper.children    # the Spell choices closed
    both_sizes("cauldron_turn_closing", portrait=True)


def test_an_omens_turn_order_and_the_simple_games_market_render_in_their_own_words(app):
    """The Omen (not Less Luck) names who starts; the Simple Game's Market lists no Spell."""
    names = [p["name"] for p in FOUR]
    s = start(app, FOUR, variants=["simple"])
    deal(s, names)
    s.execute(Command("begin"))
    s.execute(Command("omen", args={"text": "The weakest leads", "magik": {"Anna": 1},
                                    "first": "lsp"}))
    s.execute(Command("fill_board"))
    frames()
    words = " ".join(texts(app.root))
    assert "Less Luck" not in words
    assert "The Omen: the player with the fewest Magik starts" in app.prompt["text"]
    assert "Turn order: fewest Magik starts; the tied roll, the lowest starts" in words
    both_sizes("cauldron_dice_turn_order_omen")
    for who, value in (("Barb", 1), ("Carl", 4), ("Daniel", 5)):
        s.execute(Command("turn_order_roll", who, {"value": value}))
    left = s.state["ingredients_left"]
    s.execute(Command("adjust", args={"board": {k: (1 if k == "spider_web" else 0) - v
                                                for k, v in left.items() if v}}))
    who = app.prompt["turn"]
    s.execute(Command("gather", who, {"ingredient": "spider_web"}))
    s.execute(Command("end_turn", who))
    frames()
    assert app.prompt["phase"] == "market"
    assert "(Field, Cellar, Potion) or pass" in app.prompt["text"]
    # the offers say their names and prices, read from a chair; why one is off is a tap away
    spells = [t for t in texts(app.root) if "Spell" in t or "Simple Game" in t]
    assert spells == ["Basic Spell", "Advanced Spell"]
    from ui.games.cauldron.market import OfferCard
    (basic,) = [c for c in find(lambda w: isinstance(w, OfferCard), app.root)
                if c.item == "basic_spell"]
    assert not basic.ok
    tap(basic)
    assert app.refusal.startswith("Simple Game:")
    app.dismiss_refusal()
    frames()
    both_sizes("cauldron_market_simple")
