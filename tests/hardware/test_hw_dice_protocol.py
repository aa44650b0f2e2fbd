"""The dice protocol without a port: splitting a byte stream into lines, parsing lines."""

import pytest

from hardware.dice.protocol import (
    MAX_LINE,
    ButtonPress,
    Comment,
    DeviceError,
    DieSettled,
    Faces,
    Hello,
    HelloQuery,
    LineSplitter,
    Malformed,
    Moving,
    Overlong,
    Ping,
    Pong,
    Refused,
    Roll,
    format_line,
    parse_line,
    printable,
)

STREAM = b"HELLO dicetray 1.2\r\nDIE d1 4\nROLL a=1 b=6 c=3\r\nMOVING d2\nBTN seat2.claim\n"
EXPECTED = [b"HELLO dicetray 1.2", b"DIE d1 4", b"ROLL a=1 b=6 c=3", b"MOVING d2",
            b"BTN seat2.claim"]


def lines_of(splitter, chunks):
    out = []
    for chunk in chunks:
        out.extend(splitter.feed(chunk))
    return out


# -- splitting --------------------------------------------------------------------------------
def test_split_at_every_byte_gives_the_same_lines():
    for cut in range(len(STREAM) + 1):
        assert lines_of(LineSplitter(), [STREAM[:cut], STREAM[cut:]]) == EXPECTED, cut


def test_split_at_every_pair_of_points():
    for a in range(0, len(STREAM), 3):
        for b in range(a, len(STREAM) + 1, 5):
            assert lines_of(LineSplitter(), [STREAM[:a], STREAM[a:b], STREAM[b:]]) == EXPECTED


def test_one_byte_at_a_time():
    assert lines_of(LineSplitter(), [bytes([b]) for b in STREAM]) == EXPECTED


@pytest.mark.parametrize("end", [b"\n", b"\r\n", b"\r"])
def test_lf_crlf_and_cr_end_a_line(end):
    assert LineSplitter().feed(b"DIE d1 4" + end + b"DIE d2 5" + end) == [b"DIE d1 4",
                                                                           b"DIE d2 5"]


def test_crlf_split_between_cr_and_lf_is_one_line_end():
    s = LineSplitter()
    assert s.feed(b"DIE d1 4\r") == [b"DIE d1 4"]
    assert s.feed(b"\nDIE d2 5\r") == [b"DIE d2 5"]
    assert s.feed(b"\n") == []


def test_empty_lines_are_skipped():
    assert LineSplitter().feed(b"\n\r\n\n\rDIE d1 1\n\n") == [b"DIE d1 1"]


def test_a_line_of_exactly_the_limit_is_kept():
    line = b"#" + b"x" * (MAX_LINE - 1)
    assert LineSplitter().feed(line + b"\n") == [line]
    s = LineSplitter()
    assert lines_of(s, [line[:40], line[40:], b"\r\n"]) == [line]


def test_overlong_line_is_reported_once_and_dropped_to_its_end():
    s = LineSplitter()
    out = s.feed(b"DIE " + b"9" * 200 + b"\nDIE d1 3\n")
    assert isinstance(out[0], Overlong) and len(out[0].head) == MAX_LINE
    assert out[1:] == [b"DIE d1 3"]
    assert isinstance(out[0].error(), Malformed)


def test_overlong_line_never_grows_memory():
    s = LineSplitter()
    reports = []
    for _ in range(2000):                        # 2 MB without a line end
        reports += s.feed(b"x" * 1000)
        assert s.buffered <= MAX_LINE
    assert len(reports) == 1 and isinstance(reports[0], Overlong)
    assert s.discarding
    assert s.feed(b"tail\nDIE d1 6\n") == [b"DIE d1 6"]
    assert not s.discarding and s.buffered == 0


def test_overlong_split_exactly_at_the_limit():
    s = LineSplitter(max_len=4)
    assert s.feed(b"abcd") == []
    out = s.feed(b"e")
    assert len(out) == 1 and isinstance(out[0], Overlong)
    assert s.feed(b"fg\nok\n") == [b"ok"]


def test_garbage_and_bad_utf8_pass_through_the_splitter_as_lines():
    out = LineSplitter().feed(b"\xff\xfe\x00junk\n\xc3(DIE d1 2\nDIE d1 2\n")
    assert out == [b"\xff\xfe\x00junk", b"\xc3(DIE d1 2", b"DIE d1 2"]


def test_reset_forgets_a_partial_line():
    s = LineSplitter()
    s.feed(b"DIE d1")
    s.reset()
    assert s.feed(b" 4\nDIE d2 1\n") == [b" 4", b"DIE d2 1"]


# -- parsing ----------------------------------------------------------------------------------
@pytest.mark.parametrize("line, message", [
    ("HELLO dicetray 1.2", Hello("dicetray", "1.2")),
    ("HELLO dicetray 1.2 serial=42 dice=3", Hello("dicetray", "1.2", "serial=42 dice=3")),
    ("DIE d1 4", DieSettled("d1", 4)),
    ("die  d1\t4  ", DieSettled("d1", 4)),
    ("ROLL a=1 b=6 c=3", Roll((("a", 1), ("b", 6), ("c", 3)))),
    ("MOVING d2", Moving("d2")),
    ("BTN seat2.claim", ButtonPress("seat2.claim")),
    ("BTN undo HOLD", ButtonPress("undo", hold=True)),
    ("# calibrating", Comment("calibrating")),
    ("", Comment("")),
    ("PONG 17", Pong("17")),
    ("PING", Ping("")),
    ("HELLO?", HelloQuery()),
    ("ERR camera not found", DeviceError("camera not found")),
])
def test_good_lines(line, message):
    assert parse_line(line) == message
    assert parse_line(line.encode()) == message


@pytest.mark.parametrize("line", [
    "FOO bar", "DIE", "DIE d1", "DIE d1 4 5", "DIE d1 four", "DIE d1 -1", "DIE d1 +4",
    "DIE d1 1000", "DIE 1d 4", "ROLL", "ROLL a=1 a=2", "ROLL a1", "ROLL a=", "ROLL =3",
    "MOVING", "MOVING a b", "BTN", "BTN Seat2", "BTN seat2.claim NOW", "HELLO", "HELLO x",
    "HELLO? now", "ROLL " + " ".join(f"d{i}=1" for i in range(13)),
])
def test_malformed_lines(line):
    assert isinstance(parse_line(line), Malformed), line


@pytest.mark.parametrize("raw", [b"\xff\xfeDIE d1 4", b"DIE d1 4\x00", b"DIE d\xc3\xa9 4",
                                 b"\x1b[2J", "DIE d1 4\u00e9".encode()])
def test_non_ascii_or_control_bytes_are_malformed_and_printable(raw):
    result = parse_line(raw)
    assert isinstance(result, Malformed) and result.reason == "not printable ASCII"
    assert result.line.isascii() and result.line.isprintable()


def test_overlong_line_given_whole_is_malformed():
    result = parse_line(b"#" * 81)
    assert isinstance(result, Malformed) and "longer than 80" in result.reason


def test_out_of_range_values_are_refused_with_the_die_and_value():
    for line, value in (("DIE d1 0", 0), ("DIE d1 7", 7), ("DIE d1 999", 999)):
        result = parse_line(line)
        assert isinstance(result, Refused)
        assert (result.die, result.value) == ("d1", value)
        assert "not a face" in result.reason and "1-6" in result.reason


def test_a_roll_with_one_impossible_die_is_refused_whole():
    result = parse_line("ROLL a=1 b=9 c=3")
    assert isinstance(result, Refused) and (result.die, result.value) == ("b", 9)
    assert "whole roll" in result.reason


def test_per_die_faces():
    faces = Faces((1, 6), {"d8": (1, 8), "action": (0, 5)})
    assert parse_line("DIE d8 8", faces) == DieSettled("d8", 8)
    assert isinstance(parse_line("DIE d1 8", faces), Refused)
    assert parse_line("DIE action 0", faces) == DieSettled("action", 0)
    assert isinstance(parse_line("DIE action 6", faces), Refused)
    assert parse_line("ROLL d8=7 d1=2", faces) == Roll((("d8", 7), ("d1", 2)))


def test_faces_are_checked():
    with pytest.raises(ValueError):
        Faces((6, 1))
    with pytest.raises(ValueError):
        Faces((1, 6), {"d": (1, 1000)})


def test_moving_is_not_a_result():
    assert not isinstance(parse_line("MOVING d1"), (DieSettled, Roll))


def test_format_round_trips():
    for message in (Hello("dicetray", "1.2"), DieSettled("d1", 4), Roll((("a", 1), ("b", 2))),
                    Moving("d1"), ButtonPress("seat1.pass"), ButtonPress("undo", True),
                    Comment("hi"), Pong("7"), Ping("7"), DeviceError("lid open"),
                    HelloQuery()):
        text = format_line(message)
        assert len(text) <= MAX_LINE and parse_line(text) == message


def test_printable_escapes():
    assert printable(b"ok \xff\x00") == "ok \\xff\\x00"
