"""The HTML report as a user gets it (`compare --format html -o FILE`), opened in headless Chromium: the test reads
the rendered DOM back and checks it against the comparison's JSON, and keeps light and dark screenshots in
test-artifacts/html/ (CI installs Debian's chromium; elsewhere the browser tests skip when it is missing)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CAPTURES = ROOT / "fixtures/captures"
ARTIFACTS = ROOT / "test-artifacts/html"
# The pairs opened in the browser: an edit that removes a recompile, a fix that removes graph breaks, a killed run.
PAIRS = {
    "edit": ("edit_v1", "edit_v2"),
    "graph-break-fix": ("break_fix_v1", "break_fix_v2"),
    "killed-run": ("midrun_complete", "midrun_kill"),
    "compiled-nothing": ("stable", "compiled_nothing_ranks"),
}
SCREENSHOTS = ("edit", "graph-break-fix", "compiled-nothing")
# A missing value as Python, JSON or a float would spell it.
MISSING_WORDS = re.compile(r"\b(None|null|nan|NaN)\b")
_VOID = {"meta", "br", "hr", "img", "input", "link", "col", "wbr"}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list[Node | str] = field(default_factory=list)

    def text(self, *, own: bool = False) -> str:
        """The text inside; `own`: without <style> and verbatim trace or source text (data-trace)."""
        parts = []
        for child in self.children:
            if isinstance(child, str):
                parts.append(child)
            elif not (own and (child.tag == "style" or "data-trace" in child.attrs)):
                parts.append(child.text(own=own))
        return " ".join(parts)

    def find(self, tag: str | None = None, **attrs: str) -> list[Node]:
        """Descendants with this tag whose attributes hold these values (`class_` matches one class)."""
        found = []
        for child in self.children:
            if isinstance(child, str):
                continue
            ok = tag is None or child.tag == tag
            for name, value in attrs.items():
                if name == "class_":
                    ok = ok and value in child.attrs.get("class", "").split()
                else:
                    ok = ok and child.attrs.get(name.replace("_", "-")) == value
            if ok:
                found.append(child)
            found += child.find(tag, **attrs)
        return found

    def has(self, name: str) -> list[Node]:
        """Descendants that carry the attribute `name`."""
        out = []
        for child in self.children:
            if isinstance(child, Node):
                out += ([child] if name in child.attrs else []) + child.has(name)
        return out


class _Tree(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.root = Node("#document", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in _VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Node(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse(html: str) -> Node:
    tree = _Tree()
    tree.feed(html)
    return tree.root


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def browser() -> str:
    found = chromium()
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed: .ci/run must install it")
        pytest.skip("chromium is not installed here (CI installs it)")
    return found


def headless(exe: str, profile: Path, page: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            exe,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={profile}",
            "--window-size=1400,2200",
            "--hide-scrollbars",
            *args,
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_html_report_is_self_contained(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    report = tmp_path / "report.html"
    code, _, err = run(
        "compare", str(CAPTURES / "stable"), str(CAPTURES / "shape"), "--format", "html", "-o", str(report)
    )
    assert code == 0, err
    html = report.read_text()
    assert "Content-Security-Policy" in html and "script-src 'none'" in html and "<script" not in html
    assert "http://" not in html and "https://" not in html  # nothing to fetch, no link out
    assert all(href.startswith("#") for href in re.findall(r'href="([^"]*)"', html))  # links stay on the page
    assert "size mismatch" in html  # an evidence excerpt, read hash-checked from the store
    assert '<tr id="compile-time"><td>compile time</td>' in html
    assert not MISSING_WORDS.search(parse(html).text(own=True))


def _report(run, tmp_path: Path, name: str) -> tuple[Path, dict, dict[str, list[dict]]]:  # type: ignore[no-untyped-def,type-arg]
    """The pair's HTML report, its comparison JSON and each side's compilations (analyze --format json)."""
    base, cand = (str(CAPTURES / n) for n in PAIRS[name])
    report = tmp_path / f"{name}.html"
    code, _, err = run("compare", base, cand, "--format", "html", "-o", str(report))
    assert code == 0, err
    code, out, err = run("compare", base, cand, "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    compilations = {}
    for side in ("baseline", "candidate"):
        code, out, err = run("analyze", doc[side]["id"], "--format", "json")
        assert code == 0, err
        compilations[side] = [c for rank in json.loads(out)["ranks"] for c in rank["compilations"]]
    return report, doc, compilations


@pytest.mark.parametrize("name", list(PAIRS))
def test_html_report_in_headless_chromium(run, tmp_path: Path, name: str) -> None:  # type: ignore[no-untyped-def]
    """The page as Chromium renders it says what the JSON says: verdict, run status, compile time per function
    side, every compilation on its run's timeline, the failing guard text and graph-break ids, evidence ids; and
    never None, null or NaN in its own words."""
    exe = browser()
    report, doc, compilations = _report(run, tmp_path, name)
    done = headless(exe, tmp_path / "profile", report, "--dump-dom")
    assert done.returncode == 0, done.stderr[-2000:]
    dom = parse(done.stdout)
    words = dom.text(own=True)
    assert not MISSING_WORDS.search(words), MISSING_WORDS.search(words)

    (header,) = dom.find("header", id="summary")
    assert doc["comparability"]["verdict"] in header.find(class_="verdict-word")[0].text().lower()
    for side in ("baseline", "candidate"):
        (card,) = header.find(class_="run-card", data_side=side)
        assert doc[side]["run"]["summary"] in card.text()
        assert ("DID NOT FINISH" in card.text()) == (doc[side]["run"]["finished"] is False)
        # A side that compiled nothing says so on its card, before how its run ended.
        compiled = doc[side]["compiled"]
        said = card.find(class_="run-compiled")
        assert bool(said) == (compiled["state"] != "compiled")
        if said:
            assert said[0].text() == "NOTHING COMPILED" and compiled["summary"] in card.text()
            assert card.text().index(compiled["summary"]) < card.text().index(doc[side]["run"]["summary"])
    tiles = header.find(class_="tile")
    assert 3 <= len(tiles) <= 5

    # The chart: one bar per side of each function with compile time, its value the row's compile_time_s.
    (chart,) = dom.find("svg", id="compile-time-chart")
    bars = {(b.attrs["data-side"], int(b.attrs["data-row"])): b for b in chart.find("rect", class_="bar")}
    expected = {}
    for n, row in enumerate(doc["functions"]):
        sides = {s: row[s] for s in ("baseline", "candidate") if row[s] is not None}
        if any(s["counts"]["compile_time_s"] or s["counts"]["unknown_outcomes"] for s in sides.values()):
            expected.update({(side, n): fside for side, fside in sides.items()})
    assert set(bars) == set(expected)
    for key, bar in bars.items():
        assert float(bar.attrs["data-seconds"]) == pytest.approx(expected[key]["counts"]["compile_time_s"], abs=1e-6)
        assert bar.attrs["data-function"].startswith(expected[key]["qualified_name"])

    # The timeline: each run's compilations, one mark each, coloured by outcome.
    for side in ("baseline", "candidate"):
        if not compilations[side]:  # a run that compiled nothing: no lane, and the heading says why
            assert (
                f"No compilations: {doc[side]['compiled']['summary']}" in dom.find("section", id="timeline")[0].text()
            )
            continue
        (lane,) = dom.find("svg", class_="timeline", data_side=side)
        marks = lane.find("rect", class_="mark")
        assert sorted(m.attrs["data-compile-id"] for m in marks) == sorted(c["compile_id"] for c in compilations[side])
        outcome = {c["compile_id"]: c["outcome"] for c in compilations[side]}
        assert all(f"outcome-{outcome[m.attrs['data-compile-id']]}" in m.attrs["class"] for m in marks)
        timed = all(c["start_time"] is not None for c in compilations[side])
        heading = lane_heading(dom, side)
        assert ("placed by start time" in heading) == any(c["start_time"] is not None for c in compilations[side])
        assert timed or "without a start time" in heading or "compile order" in heading

    # Per-row details: the guard text and graph-break ids of the JSON, and the evidence ids.
    text = dom.text()
    for row in doc["functions"]:
        for change in row["changes"]:
            if change["kind"] == "phase_time":
                continue
            for side in ("baseline", "candidate"):
                value = change[side]
                if isinstance(value, dict):
                    for example in value.get("examples") or []:
                        assert example.split("  #", 1)[0].strip() in text
                    if str(value.get("key", "")).startswith("gb"):
                        assert f"graph-break type {value['key']}" in " ".join(text.split())
                for ev in change[f"{side}_evidence"]:
                    assert ev in text
    if name == "graph-break-fix":
        assert dom.find(class_="site-note"), "the graph-break lines are marked in the baseline's source"
    if name == "edit":
        changed = [side.attrs["class"] for side in dom.find("div", class_="code-side") if side.find("tr", class_="chg")]
        assert any("baseline" in c for c in changed) and any("candidate" in c for c in changed)


def lane_heading(dom: Node, side: str) -> str:
    """The heading above a run's timeline (what it shows and how its marks are placed)."""
    (section,) = dom.find("section", id="timeline")
    headings = [h.text() for h in section.find("h3")]
    return next(h for h in headings if h.strip().startswith(side))


@pytest.mark.parametrize("name", SCREENSHOTS)
def test_html_report_screenshots(run, tmp_path: Path, name: str) -> None:  # type: ignore[no-untyped-def]
    """Light and dark screenshots at 1400 px, kept in test-artifacts/html/ (dark: prefers-color-scheme: dark)."""
    exe = browser()
    report, _, _ = _report(run, tmp_path, name)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for scheme, flags in (("light", ()), ("dark", ("--blink-settings=preferredColorScheme=0",))):
        shot = ARTIFACTS / f"{name}-{scheme}.png"
        shot.unlink(missing_ok=True)
        done = headless(exe, tmp_path / f"profile-{scheme}", report, *flags, f"--screenshot={shot}")
        assert done.returncode == 0, done.stderr[-2000:]
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    shutil.copyfile(report, ARTIFACTS / f"{name}.html")
