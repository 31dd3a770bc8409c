"""Odds for people: a Rich table, the context of a check, and a terminal bar chart."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from saikoro.i18n import Message
from saikoro.odds.result import FLAGS, Odds

if TYPE_CHECKING:
    from rich.console import Console

FLAG_LABELS: dict[str, Message] = {
    "success": Message("成功", "success"),
    "failure": Message("失敗", "failure"),
    "critical": Message("クリティカル", "critical"),
    "fumble": Message("ファンブル", "fumble"),
}

#: Labels of the context details systems put in ``RollResult.detail``.
CONTEXT_LABELS: dict[str, Message] = {
    "band": Message("難易度", "difficulty"),
    "difficulty": Message("難易度", "difficulty"),
    "target": Message("目標値", "target"),
    "rate": Message("成功率", "rate"),
    "ac": Message("AC", "AC"),
    "rc": Message("RC", "RC"),
    "charm": Message("魅力", "charm"),
    "critical_range": Message("クリティカル≦", "critical on ≤"),
}

#: Result words the flags already say: no breakdown table for these alone.
PLAIN_WORDS = frozenset({"", "成功", "失敗", "クリティカル", "ファンブル"})

BAR_WIDTH = 40
MAX_BARS = 40


def percent(p: float) -> str:
    return f"{100 * p:.2f} %"


def fraction_text(p: Any) -> str:
    if isinstance(p, Fraction) and p.denominator <= 10**6:
        return f"{p.numerator}/{p.denominator}" if p.denominator != 1 else str(p.numerator)
    return ""


def context_text(odds: Odds, lang: str) -> str:
    """``目標値 60, AC 30, …``: the check's fixed details (band, rate), shown by the chance."""
    parts = []
    for key, value in odds.context.items():
        if value is None or isinstance(value, bool) or key not in CONTEXT_LABELS:
            continue
        if lang != "en":  # a system may give the Japanese form beside the key: band_ja
            value = odds.context.get(f"{key}_ja", value)
        parts.append(f"{CONTEXT_LABELS[key].text(lang)} {value}")
    return ", ".join(parts)


def count_text(n: int) -> str:
    """``1,261``; ``6.05×10^7`` past twelve digits (counts can have thousands of digits)."""
    digits = str(n)
    if len(digits) <= 12:
        return f"{n:,}"
    return f"{digits[0]}.{digits[1:3]}×10^{len(digits) - 1}"


def method_text(odds: Odds, lang: str) -> str:
    n = count_text(odds.outcomes)
    if odds.method == "enumeration":
        return Message(
            f"厳密 (出目 {n} 通りをすべて評価)", f"exact ({n} dice sequences, every one evaluated)"
        ).text(lang)
    if odds.method == "multiset":
        return Message(
            f"厳密 (順序によらない出目の組を評価、出目 {n} 通り)",
            f"exact (every multiset of faces evaluated, {n} sequences)",
        ).text(lang)
    if odds.method == "convolution":
        return Message(
            f"厳密 (合計の畳み込み、出目 {n} 通り)",
            f"exact (convolution of the sum, {n} sequences)",
        ).text(lang)
    if odds.time_limited:
        return Message(
            f"推定 (モンテカルロ {n} 回で時間切れ、95 % 信頼区間つき)",
            f"estimate (Monte Carlo, {n} samples when time ran out, 95 % intervals)",
        ).text(lang)
    return Message(
        f"推定 (モンテカルロ {n} 回、95 % 信頼区間つき)",
        f"estimate (Monte Carlo, {n} samples, 95 % intervals)",
    ).text(lang)


def notes(odds: Odds, lang: str) -> list[str]:
    """What the table alone would not say: a repeat's figures are per roll; no value."""
    lines = []
    if odds.repeat is not None:
        lines.append(
            Message(
                f"{odds.repeat} 回の繰り返し: 各回は同じコマンドを独立に振るので、"
                "以下は 1 回分の確率です",
                f"repeated {odds.repeat} times: each time the same command is rolled"
                " independently, so the figures are those of one roll",
            ).text(lang)
        )
    if not odds.distribution:
        lines.append(
            Message(
                "このコマンドの結果には数値 (値) がないので、値の分布はありません",
                "this command's result has no numeric value, so there is no distribution",
            ).text(lang)
        )
    return lines


#: Wide distributions are charted without tails holding less than this on each side.
TAIL = 1e-4


def bins(distribution: dict[int, Any], max_bars: int = MAX_BARS) -> list[tuple[str, float]]:
    """(label, probability) bars; wide distributions are grouped into ranges (tails cut)."""
    items = [(v, float(p)) for v, p in distribution.items()]
    if not items:
        return []
    low, high = items[0][0], items[-1][0]
    if high - low + 1 > max_bars:
        low, high = _trimmed(items)
    span = high - low + 1
    if span <= max_bars:
        dense = dict(items)
        return [(str(v), dense.get(v, 0.0)) for v in range(low, high + 1)]
    width = -(-span // max_bars)
    grouped: list[tuple[str, float]] = []
    for start in range(low, high + 1, width):
        end = min(start + width - 1, high)
        total = sum(p for v, p in items if start <= v <= end)
        grouped.append((f"{start}–{end}", total))
    return grouped


def _trimmed(items: list[tuple[int, float]]) -> tuple[int, int]:
    """The value range left after cutting tails that hold less than :data:`TAIL` each."""
    low_index, mass = 0, 0.0
    while low_index < len(items) - 1 and mass + items[low_index][1] < TAIL:
        mass += items[low_index][1]
        low_index += 1
    high_index, mass = len(items) - 1, 0.0
    while high_index > low_index and mass + items[high_index][1] < TAIL:
        mass += items[high_index][1]
        high_index -= 1
    return items[low_index][0], items[high_index][0]


def bar_lines(distribution: dict[int, Any]) -> list[str]:
    """A horizontal bar chart of the distribution, one line per value (or range)."""
    bars = bins(distribution)
    if not bars:
        return []
    top = max(p for _, p in bars) or 1.0
    label_width = max(len(label) for label, _ in bars)
    eighths = " ▏▎▍▌▋▊▉"
    lines = []
    for label, p in bars:
        units = p / top * BAR_WIDTH
        full = int(units)
        rest = int((units - full) * 8)
        bar = "█" * full + (eighths[rest] if rest else "")
        lines.append(f"{label:>{label_width}} │{bar:<{BAR_WIDTH + 1}} {percent(p)}")
    return lines


def render(odds: Odds, console: Console, lang: str = "ja") -> None:
    """Print the odds as a table, the check's context and a bar chart."""
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    title = escape(f"{odds.command}  [{odds.system}]")
    table = Table(title=title, caption=method_text(odds, lang), show_header=True)
    table.add_column(Message("結果", "outcome").text(lang))
    table.add_column(Message("確率", "chance").text(lang), justify="right")
    if odds.exact:
        table.add_column(Message("分数", "fraction").text(lang), justify="right")
    else:
        table.add_column(Message("95 % 区間", "95 % interval").text(lang), justify="right")
    note = context_text(odds, lang)
    if note:
        table.add_column(Message("条件", "check").text(lang))
    for flag in FLAGS:
        p = odds.probability(flag)
        if odds.exact:
            extra = fraction_text(p)
        else:
            interval = odds.intervals[flag]
            extra = f"{percent(interval.low)} – {percent(interval.high)}"
        row = [FLAG_LABELS[flag].text(lang), percent(float(p)), extra]
        if note:
            row.append(note if flag == "success" else "")
        table.add_row(*row)
    if odds.mean is not None:
        mean_extra = fraction_text(odds.mean) if odds.exact else ""
        if not odds.exact and odds.mean_interval is not None:
            mean_extra = f"{odds.mean_interval.low:.3f} – {odds.mean_interval.high:.3f}"
        row = [Message("平均", "mean").text(lang), f"{float(odds.mean):.4f}", mean_extra]
        table.add_row(*([*row, ""] if note else row))
        row = [Message("標準偏差", "std. dev.").text(lang), f"{odds.stdev:.4f}", ""]
        table.add_row(*([*row, ""] if note else row))
    console.print(table)
    for line in notes(odds, lang):
        console.print(Text(line))
    if odds.words and not set(odds.words) <= PLAIN_WORDS:
        words = Table(title=Message("結果の内訳", "results").text(lang), show_header=False)
        words.add_column()
        words.add_column(justify="right")
        for word, p in odds.words.items():
            words.add_row(_word(word, odds, lang) or "—", percent(float(p)))
        console.print(words)
    if _uniform(odds.distribution):
        low, high = min(odds.distribution), max(odds.distribution)
        console.print(
            Message(
                f"値は {low}〜{high} の一様分布 (各 {percent(float(odds.distribution[low]))})",
                f"the value is uniform on {low}–{high} ({percent(float(odds.distribution[low]))} each)",
            ).text(lang)
        )
        return
    lines = bar_lines(odds.distribution)
    if lines:
        heading = (
            Message("ダメージの分布", "distribution of the damage")
            if odds.value_kind == "damage"
            else Message("値の分布", "distribution of the value")
        )
        console.print(Text(heading.text(lang), style="bold"))
        for line in lines:
            console.print(Text(line))
        if odds.value_probability != 1:
            console.print(
                Message(
                    f"(値のある結果は全体の {percent(float(odds.value_probability))})",
                    f"(results with a value: {percent(float(odds.value_probability))})",
                ).text(lang)
            )


def _uniform(distribution: dict[int, Any]) -> bool:
    """A wide flat distribution (the raw d100 of a check): a chart would say nothing."""
    if len(distribution) <= MAX_BARS:
        return False
    values = sorted(distribution)
    first = distribution[values[0]]
    contiguous = values[-1] - values[0] + 1 == len(values)
    return contiguous and all(distribution[v] == first for v in values)


def _word(word: str, odds: Odds, lang: str) -> str:
    if lang != "en" or not word:
        return word
    if word in odds.words_en:  # the command's own English
        return odds.words_en[word]
    from saikoro.dice.words import to_english
    from saikoro.systems import systems

    return to_english(word, systems.get_system(odds.system))
