"""Score changes of one finished hand (RULES.md §4.8, §5.8; scores count down, negative is good)."""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import RuleSet


def passer_change(rules: RuleSet, passes_before: int) -> int:
    """A player who passes a hand that is played: 0, or the sit-out penalty for the third pass in a row
    (swiss rule 17, §4.8); ``sit_out_repeats`` decides whether every later pass costs it too."""
    return rules.pass_penalty(passes_before)


def trick_score(rules: RuleSet, tricks: int, is_rumba_player: bool, in_rumba: bool) -> int:
    """One active player's change by the tables of §4.8 / §5.8."""
    if is_rumba_player:  # 3..5 tricks: -2 per trick (swiss) / -10 (flemish); else +10
        if tricks >= rules.rumba_min_tricks:
            return rules.rumba_success_flat + rules.rumba_success_per_trick * tricks
        return rules.rumba_fail_score
    if in_rumba:  # the others in a Rumba or knock: -k (swiss) / -2k (flemish); no trick +5 / +10
        return rules.rumba_others_per_trick * tricks if tricks >= 1 else rules.rumba_others_no_trick
    return rules.normal_per_trick * tricks if tricks >= 1 else rules.normal_no_trick  # normal game: -k, +5


def hand_returns(rules: RuleSet, passed: Sequence[bool], active: Sequence[int], rumba_seat: int | None,
                 tricks: Sequence[int | None], void: bool, thrown_in: bool,
                 passes_in_a_row: Sequence[int]) -> list[int]:
    """Every seat's score change. ``tricks`` per seat (None where none were played)."""
    n = len(passed)
    if thrown_in:  # [D-4]: void, no scores change, nobody's pass
        return [0] * n
    if void:  # [D-6] nobody plays: void; a pass only where the rule set counts it (void_counts_as_pass)
        return [passer_change(rules, passes_in_a_row[s]) if rules.void_counts_as_pass else 0 for s in range(n)]
    changes = [passer_change(rules, passes_in_a_row[s]) if passed[s] else 0 for s in range(n)]
    if len(active) == 1:
        lone = active[0]
        if lone == rumba_seat and rules.lone_rumba_allowed:
            changes[lone] = rules.lone_rumba_score  # rule 10: Rumba / knock, nobody else played
        else:
            changes[lone] = rules.lone_player_score  # [D-7] as if he took all five tricks
        return changes
    for s in active:
        changes[s] = trick_score(rules, tricks[s], s == rumba_seat, rumba_seat is not None)
    return changes


__all__ = ["passer_change", "trick_score", "hand_returns"]
