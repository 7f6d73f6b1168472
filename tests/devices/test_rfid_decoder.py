"""The pure frame decoders: checksums, resynchronisation, split frames and held cards, with exact times."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware.rfid import FrameDecoder, LineDecoder, checksum, frame, make_decoder, normalise_tag

# A real EM4100 card: version 0x0F, id 0x00A1B2C3. Checksum by hand: 0F^00^A1^B2^C3 = 0xDF.
CARD = "0F00A1B2C3"
CARD_FRAME = b"\x020F00A1B2C3DF\x03"
OTHER = "1A2B3C4D5E"  # 1A^2B = 31, ^3C = 0D, ^4D = 40, ^5E = 1E


def test_checksum_matches_hand_computed_values() -> None:
    assert checksum(CARD) == 0xDF
    assert checksum(OTHER) == 0x1E
    assert frame(CARD) == CARD_FRAME
    assert frame(OTHER, crlf=True) == b"\x021A2B3C4D5E1E\r\n\x03"


def test_clean_frame_is_one_tap() -> None:
    decoder = FrameDecoder()
    assert decoder.feed(CARD_FRAME, now=0.0) == [CARD]
    assert decoder.stats.frames == 1


def test_frame_with_cr_lf_and_lower_case_hex() -> None:
    decoder = FrameDecoder()
    assert decoder.feed(b"\x020f00a1b2c3df\r\n\x03", now=0.0) == [CARD]


def test_bad_checksum_is_dropped_and_counted() -> None:
    decoder = FrameDecoder()
    assert decoder.feed(b"\x020F00A1B2C3DE\x03", now=0.0) == []
    assert decoder.stats.bad_checksums == 1
    assert decoder.feed(CARD_FRAME, now=0.1) == [CARD]


def test_frame_split_across_every_possible_cut() -> None:
    for cut in range(1, len(CARD_FRAME)):
        decoder = FrameDecoder()
        assert decoder.feed(CARD_FRAME[:cut], now=0.0) == []
        assert decoder.feed(CARD_FRAME[cut:], now=0.01) == [CARD], cut


def test_byte_by_byte() -> None:
    decoder = FrameDecoder()
    taps = [t for b in CARD_FRAME + frame(OTHER) for t in decoder.feed(bytes([b]), now=0.0)]
    assert taps == [CARD, OTHER]


def test_garbage_before_between_and_inside_frames() -> None:
    decoder = FrameDecoder()
    noise = b"\xff\x00junk\x03\x03"
    truncated = b"\x020F00A1"  # a card pulled away mid-frame: the next STX restarts
    data = noise + CARD_FRAME + b"\x17\x99" + truncated + frame(OTHER) + b"\x02ZZZZZZZZZZZZ\x03"
    assert decoder.feed(data, now=0.0) == [CARD, OTHER]
    assert decoder.stats.garbage_bytes >= len(noise) + 2 + len(truncated)


def test_stx_without_etx_is_abandoned_and_the_next_frame_found() -> None:
    decoder = FrameDecoder()
    # An STX followed by 20 hex digits and no ETX: not a frame; the real frame after it must still come out.
    assert decoder.feed(b"\x02" + b"A" * 20, now=0.0) == []
    assert decoder.feed(CARD_FRAME, now=0.0) == [CARD]


def test_three_frames_in_one_read() -> None:
    decoder = FrameDecoder()
    third = "0102030405"
    assert decoder.feed(frame(CARD) + frame(OTHER) + frame(third), now=0.0) == [CARD, OTHER, third]


def test_held_card_repeats_are_one_tap_until_a_gap_over_one_second() -> None:
    decoder = FrameDecoder(hold_seconds=1.0)
    taps = []
    # Held for 3 s, a frame every 0.1 s (an RDM6300 sends about that often): one tap.
    for i in range(30):
        taps += decoder.feed(CARD_FRAME, now=i * 0.1)
    assert taps == [CARD]
    # Lifted at 2.9 s, put back 0.9 s later: still the same tap (within 1 s of its previous frame).
    assert decoder.feed(CARD_FRAME, now=3.8) == []
    # Lifted again, back 1.2 s later: a second tap.
    assert decoder.feed(CARD_FRAME, now=5.0) == [CARD]


def test_two_cards_alternating_do_not_break_each_others_hold() -> None:
    decoder = FrameDecoder()
    taps = []
    for i in range(10):
        taps += decoder.feed(frame(CARD) + frame(OTHER), now=i * 0.3)
    assert taps == [CARD, OTHER]


def test_line_protocol() -> None:
    decoder = LineDecoder()
    data = b"0F00A1B2C3\r\n1a2b3c4d5e1e\nnot a tag\n1A2B3C4D5E00\n\n"
    assert decoder.feed(data, now=0.0) == [CARD, OTHER]
    assert decoder.stats.bad_checksums == 1
    assert decoder.feed(b"0F00A1B2C3\n", now=0.5) == []  # held
    assert decoder.feed(b"0F00A1", now=2.0) == []  # split line
    assert decoder.feed(b"B2C3\n", now=2.0) == [CARD]


def test_normalise_tag_and_unknown_protocol() -> None:
    assert normalise_tag(" 0f00a1b2c3 ") == CARD
    with pytest.raises(ValueError):
        normalise_tag("0F00A1B2")
    with pytest.raises(ValueError):
        normalise_tag("0F00A1B2CG")
    with pytest.raises(ValueError):
        make_decoder("wiegand")


@given(
    tags=st.lists(st.text(alphabet="0123456789ABCDEF", min_size=10, max_size=10), min_size=1, max_size=8),
    noise=st.lists(st.binary(max_size=20), min_size=9, max_size=9),
    cuts=st.lists(st.integers(min_value=1, max_value=40), max_size=30),
)
def test_any_noise_and_chunking_gives_exactly_the_tags(tags: list[str], noise: list[bytes],
                                                       cuts: list[int]) -> None:
    # Noise without STX cannot start a frame, so every tag must come through, in order, once each
    # (the frames are 2 s apart, so none is a held repeat of another).
    clean = [n.replace(b"\x02", b"") for n in noise]
    stream = []
    for i, tag in enumerate(tags):
        stream.append((clean[i] + frame(tag, crlf=i % 2 == 1), i * 2.0))
    decoder = FrameDecoder()
    taps = []
    for data, when in stream:
        pieces, rest = [], data
        for cut in cuts:
            if not rest:
                break
            pieces.append(rest[:cut])
            rest = rest[cut:]
        pieces.append(rest)
        for piece in pieces:
            taps += decoder.feed(piece, now=when)
    assert taps == tags


@pytest.mark.parametrize("protocol, half, rest", [
    ("rdm6300", frame(CARD)[:6], frame(CARD)[6:]),
    ("line", b"0F00A1", b"B2C3\n"),
])
def test_reset_forgets_the_half_read_tag_and_the_held_card(protocol: str, half: bytes, rest: bytes) -> None:
    # Both decoders share one base for their buffer, held-card filter and counters (hardware.rfid.BufferedDecoder).
    from hardware.rfid import BufferedDecoder

    decoder = make_decoder(protocol)
    assert isinstance(decoder, BufferedDecoder)
    assert decoder.feed(half + rest, now=0.0) == [CARD]
    decoder.feed(half, now=0.1)
    decoder.reset()  # the port closed mid-tag: the half tag is gone, and the card on the reader is new again
    assert decoder.feed(rest, now=0.2) == []
    assert decoder.feed(half + rest, now=0.3) == [CARD]
