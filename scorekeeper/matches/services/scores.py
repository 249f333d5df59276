"""The scores cached on the rows: every write re-scores the whole match through the engine
(`rescore`) and rewrites what changed, in the write's transaction; the match's holder is told."""

from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone

from scorekeeper.engine.scoring import MatchDeal, MatchResult, score_match
from scorekeeper.engine.scoring.breakdown import STORED_BREAKDOWN, Line, line_to_data

from .. import holder
from ..models import Deal, Match

# The match's own cache (set by set_result), beside each deal's CACHE_FIELDS.
MATCH_CACHE_FIELDS = ("total0", "total1", "reserve", "deal_count", "status", "winner")


CACHE_FIELDS = [
    "number", "outcome", "score0", "score1", "total0", "total1", "reserve_after", "dealer", "texts"
]  # fmt: skip


def higher_total(totals: tuple[int, int]) -> int | None:
    """The team with more points; None when equal (a draw)."""
    return None if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1)


def cache_deal(
    row: Deal, scored: MatchDeal, names: tuple[str, str], *, settled: bool = False
) -> bool:
    """Write the engine's result for this deal onto its row; whether anything changed. A
    `settled` row (its inputs and every deal before it unchanged since its breakdown was written
    by this engine) keeps its breakdown unless one of its figures moved or it has none."""
    values = {
        "number": scored.number,
        "outcome": scored.outcome,
        "score0": scored.scores[0],
        "score1": scored.scores[1],
        "total0": scored.totals[0],
        "total1": scored.totals[1],
        "reserve_after": scored.reserve,
        "dealer": scored.dealer,
    }
    dirty = any(getattr(row, k) != v for k, v in values.items())
    for key, value in values.items():
        setattr(row, key, value)
    if settled and not dirty and STORED_BREAKDOWN in row.texts:
        return False
    return store_breakdown(row, scored.breakdown) or dirty


def store_breakdown(row: Deal, lines: Sequence[Line]) -> bool:
    """Keep the deal's breakdown on its row as the engine's data, in no language (`Deal.texts`):
    the page words it when drawn (`scorekeeper.web.words`), so a corrected translation shows at once,
    without re-scoring, and the scoreboard still does not run the engine. Whether it changed."""
    texts = {STORED_BREAKDOWN: [line_to_data(line) for line in lines]}
    changed: bool = row.texts != texts
    row.texts = texts
    return changed


def set_result(match: Match, result: MatchResult) -> None:
    """The match's own cache: totals, reserve, deal count, status, winner, end time (a typed
    result, see type_result, keeps its totals: only the deal count follows the deals; a match
    its holder ended, see end_match, is finished whatever its rules say)."""
    if match.typed_at is not None:
        match.deal_count = len(result.deals)
        return
    was_finished = match.is_finished
    match.total0, match.total1 = result.totals
    match.reserve = result.reserve
    match.deal_count = len(result.deals)
    # Ended by its holder (end_match): finished with the deals played, the higher total winning.
    finished = result.finished or match.ended_at is not None
    match.status = Match.Status.FINISHED if finished else Match.Status.PLAYING
    if result.finished:
        match.winner = result.winner if isinstance(result.winner, int) else None
    else:
        match.winner = higher_total(result.totals) if finished else None
    if finished and not was_finished:
        match.finished_at = timezone.now()
    elif not finished:
        match.finished_at = None


def _write_caches(match: Match, deals: list[Deal], *, settled: int = 0) -> tuple[MatchResult, bool]:
    """Score `deals` (in order) with the match's rules and write every cache: new rows inserted
    in one query, changed ones updated in one, the match's own fields set (not saved). Returns
    the result and whether any cached value changed. The first `settled` deals are known to be
    as they were (a deal added at the end changes nothing before it: the engine scores in order),
    so their texts are not written again unless a figure of theirs moved."""
    result = score_match(match.engine_rules, [d.to_engine() for d in deals], match.first_dealer)
    changed: list[Deal] = []
    new: list[Deal] = []
    for index, (row, scored) in enumerate(zip(deals, result.deals, strict=True)):
        dirty = cache_deal(row, scored, match.team_names, settled=index < settled)
        if row.pk is None:
            new.append(row)
        elif dirty:
            changed.append(row)
    if new:
        Deal.objects.bulk_create(new)
    if changed:
        Deal.objects.bulk_update(changed, CACHE_FIELDS)
    before = [getattr(match, name) for name in MATCH_CACHE_FIELDS]
    set_result(match, result)
    after = [getattr(match, name) for name in MATCH_CACHE_FIELDS]
    return result, bool(new or changed) or after != before


def rescore(match: Match, deals: list[Deal], *, settled: int = 0) -> MatchResult:
    """Score `deals` (in order), write every cache and move the match to its next version; its
    holder, if any, is told (MatchHolder.after_write)."""
    result, _ = _write_caches(match, deals, settled=settled)
    match.version += 1
    match.save(update_fields=[*MATCH_CACHE_FIELDS, "finished_at", "version", "updated_at"])
    tell_holder(match)
    return result


def tell_holder(match: Match) -> None:
    if match.in_concours:
        holder.get_holder().after_write(match)


@transaction.atomic
def refresh_scores(*, match_id: int) -> bool:
    """Score a stored match again with this version of the engine (after an upgrade that changed
    how a rule is read) and rewrite its cached scores; whether anything changed. Its deals and
    their history are untouched, and the version only moves when a score did."""
    match = Match.objects.locked(match_id)
    _, changed = _write_caches(match, match.deal_rows())
    if changed:
        match.version += 1
        match.save()
        tell_holder(match)
    return changed
