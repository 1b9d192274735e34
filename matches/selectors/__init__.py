"""Reads, one module per concern: ``scoring`` (matches)."""

from matches.selectors.scoring import (
    actions_at,
    can_restore,
    change_history,
    claim_value,
    event_action,
    match_actions,
    match_engine,
    match_grants,
    match_list,
    match_names,
    match_record,
    match_summary,
    round_settle_action,
    score_decimal,
    scorer_grant,
)

__all__ = [
    "actions_at",
    "can_restore",
    "change_history",
    "claim_value",
    "event_action",
    "match_actions",
    "match_engine",
    "match_grants",
    "match_list",
    "match_names",
    "match_record",
    "match_summary",
    "round_settle_action",
    "score_decimal",
    "scorer_grant",
]
