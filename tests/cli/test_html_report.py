"""The HTML report as a user gets it (`compare --format html -o FILE`), opened in headless Chromium: the test reads
the rendered DOM back and checks it against the comparison's JSON, drives the page as a reader does (the table of
contents, collapsed details, sorting, the links to each compilation's records) over Chromium's DevTools protocol,
and keeps screenshots in test-artifacts/html/: light and dark at 1400 px, and 800 and 1400 px wide
(CI installs Debian's chromium; elsewhere the browser tests skip when it is missing)."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import shutil
import subprocess
import time
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
# The pairs driven in the browser and shot at 800 and 1400 px: an edit, a fix, a cold vs warm Inductor cache (its
# generated code), and a torch upgrade (records larger than the page embeds whole).
DRIVEN = {
    "edit": ("edit_v1", "edit_v2"),
    "graph-break-fix": ("break_fix_v1", "break_fix_v2"),
    "inductor-cache": ("inductor_cold", "inductor_warm"),
    "upgrade": ("llama_213", "llama_214"),
}
# Record kinds a compilation links to (docs/COMPARING.md, "Reports"): graphs, guards, generated code.
LINKED_KINDS = {
    "dynamo_output_graph",
    "aot_joint_graph",
    "aot_forward_graph",
    "aot_backward_graph",
    "aot_inference_graph",
    "inductor_post_grad_graph",
    "dynamo_cpp_guards_str",
    "inductor_output_code",
}
# A missing value as Python, JSON or a float would spell it.
MISSING_WORDS = re.compile(r"\b(None|null|nan|NaN)\b")
_VOID = {"meta", "br", "hr", "img", "input", "link", "col", "wbr"}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list[Node | str] = field(default_factory=list)

    def text(self, *, own: bool = False) -> str:
        """The text inside; `own`: without <style>, <script> and verbatim trace or source text (data-trace)."""
        parts = []
        for child in self.children:
            if isinstance(child, str):
                parts.append(child)
            elif not (own and (child.tag in ("style", "script") or "data-trace" in child.attrs)):
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
    # One script, the page's own, and the policy allows it by its hash only (no inline handlers, nothing else).
    (script,) = re.findall(r"<script>(.*?)</script>", html, re.S)
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    (csp,) = re.findall(r'http-equiv="Content-Security-Policy" content="([^"]*)"', html)
    assert f"script-src 'sha256-{digest}'" in csp and "unsafe-inline'; img" in csp and csp.count("unsafe") == 1
    assert html.count("<script") == 1 and not re.search(r"<[^>]+\son[a-z]+=", html)
    assert "http://" not in html and "https://" not in html  # nothing to fetch, no link out
    assert all(href.startswith("#") for href in re.findall(r'href="([^"]*)"', html))  # links stay on the page
    assert "size mismatch" in html  # an evidence excerpt, read hash-checked from the store
    assert '<tr id="compile-time"><td>compile time</td>' in html
    assert not MISSING_WORDS.search(parse(html).text(own=True))


def test_html_evidence_is_condensed_with_the_record_as_written_behind_an_expander(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """break_fix_v1's graph break record: the page shows it as `evidence` prints it (the user's frames, each run of
    torch's frames one line), and the record as written in an expander of its own: bytes of the trace file."""
    import html as html_lib

    report = tmp_path / "report.html"
    pair = (str(CAPTURES / "break_fix_v1"), str(CAPTURES / "break_fix_v2"))
    code, _, err = run("compare", *pair, "--format", "html", "-o", str(report))
    assert code == 0, err
    page = report.read_text()
    trace = "".join(p.read_text() for p in sorted((CAPTURES / "break_fix_v1" / "raw").glob("*.log")))
    # The record: torch's traceback of the break names its own frames under torch/_dynamo, and the user's line.
    user_frame = 'File "/tmp/dynamo-diff-fixtures/break_fix/model.py", line 19, in step'
    assert user_frame in trace and re.search(r'File "[^"]*/torch/_dynamo/[^"]+", line \d+', trace)
    blocks = re.findall(
        r'<details><summary>evidence <code>([^<]+)</code>[^<]*</summary><p class="note">([^<]*)</p>'
        r'<pre class="trace" data-trace>(.*?)</pre><details class="raw"><summary>the record as written[^<]*</summary>'
        r'<pre class="trace" data-trace>(.*?)</pre></details></details>',
        page,
        re.S,
    )
    breaks = [
        (ev, note, html_lib.unescape(short), html_lib.unescape(raw))
        for ev, note, short, raw in blocks
        if user_frame in html_lib.unescape(short)
    ]
    assert breaks, "the graph break's evidence is on the page, condensed"
    for _, note, short, raw in breaks:
        torch_frames = re.findall(r'File "[^"]*/torch/[^"]+", line \d+', raw)
        assert torch_frames and not re.search(r'File "[^"]*/torch/[^"]+", line \d+', short)
        assert re.search(r"\.\.\. \d+ frames in torch/_dynamo", short) and user_frame in short
        assert note.startswith("condensed: ") and "torch/library stack frames collapsed" in note
        # The record as written: its first characters are the trace file's bytes (tabs and all).
        assert raw in trace


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


def _keep(path: Path, name: str | None = None) -> None:
    """Copy a file into ARTIFACTS under its name, replacing what is there in one step (another process running the
    same test, e.g. a second tox env, never sees a half-written or missing file)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    partial = ARTIFACTS / f".{name or path.name}.{os.getpid()}.partial"
    shutil.copyfile(path, partial)
    partial.replace(ARTIFACTS / (name or path.name))


@pytest.mark.parametrize("name", SCREENSHOTS)
def test_html_report_screenshots(run, tmp_path: Path, name: str) -> None:  # type: ignore[no-untyped-def]
    """Light and dark screenshots at 1400 px, kept in test-artifacts/html/ (dark: prefers-color-scheme: dark)."""
    exe = browser()
    report, _, _ = _report(run, tmp_path, name)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for scheme, flags in (("light", ()), ("dark", ("--blink-settings=preferredColorScheme=0",))):
        shot = tmp_path / f"{name}-{scheme}.png"  # taken here, then kept: tox envs running at once share ARTIFACTS
        done = headless(exe, tmp_path / f"profile-{scheme}", report, *flags, f"--screenshot={shot}")
        assert done.returncode == 0, done.stderr[-2000:]
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        _keep(shot)
    _keep(report, f"{name}.html")


class Chromium:
    """Chromium driven over its DevTools protocol on a pipe (`--remote-debugging-pipe`: JSON commands, each ended
    by a NUL byte, on the browser's fd 3, replies on its fd 4): no client library, no network port."""

    def __init__(self, exe: str, profile: Path) -> None:
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()

        def wire() -> None:  # in the child: the pipe ends at fds 3 and 4
            a, b = os.dup(to_browser_r), os.dup(from_browser_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            [
                exe,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                f"--user-data-dir={profile}",
                "--remote-debugging-pipe",
                "--hide-scrollbars",
                "about:blank",
            ],
            pass_fds=(3, 4),
            preexec_fn=wire,  # noqa: PLW1509 (no threads are started before it)
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._id = 0
        self._session: str | None = None
        targets = self.send("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        self._session = self.send("Target.attachToTarget", targetId=page["targetId"], flatten=True)["sessionId"]
        self.send("Page.enable")
        self.send("Runtime.enable")

    def send(self, method: str, **params: object) -> dict:  # type: ignore[type-arg]
        self._id += 1
        message: dict[str, object] = {"id": self._id, "method": method, "params": params}
        if self._session and not method.startswith("Target."):
            message["sessionId"] = self._session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            while b"\0" not in self._buffer:
                chunk = os.read(self._from_browser, 1 << 20)
                assert chunk, "chromium closed its DevTools pipe"
                self._buffer += chunk
            raw, self._buffer = self._buffer.split(b"\0", 1)
            reply = json.loads(raw)
            if reply.get("id") == self._id:
                assert "error" not in reply, f"{method}: {reply['error']}"
                return reply.get("result", {})  # type: ignore[no-any-return]
        raise AssertionError(f"{method}: no reply")

    def js(self, expression: str) -> object:
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        assert "exceptionDetails" not in result, result["exceptionDetails"]
        return result["result"].get("value")

    def open(self, page: Path, width: int, height: int = 1000) -> None:
        self.send("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)
        self.send("Page.navigate", url=page.as_uri())
        for _ in range(200):
            if self.js("document.readyState") == "complete":
                return
            time.sleep(0.05)
        raise AssertionError(f"{page} did not load")

    def screenshot(self, path: Path, width: int) -> None:
        """The whole page at this width (up to 16,000 px tall)."""
        height = min(int(self.js("document.documentElement.scrollHeight")), 16_000)  # type: ignore[call-overload]
        self.send("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)
        path.write_bytes(base64.b64decode(self.send("Page.captureScreenshot", format="png")["data"]))

    def close(self) -> None:
        try:
            self.send("Browser.close")
        finally:
            self.proc.wait(timeout=30)


@pytest.fixture
def chromium_page(tmp_path: Path):  # type: ignore[no-untyped-def]
    exe = browser()
    driven = Chromium(exe, tmp_path / "profile-cdp")
    yield driven
    driven.close()


def _driven_report(run, tmp_path: Path, name: str) -> tuple[Path, dict, dict[str, list[dict]]]:  # type: ignore[no-untyped-def,type-arg]
    """The pair's report, its comparison JSON and, per side, its evidence index (evidence --format json)."""
    base, cand = (str(CAPTURES / n) for n in DRIVEN[name])
    report = tmp_path / f"{name}.html"
    code, _, err = run("compare", base, cand, "--format", "html", "-o", str(report))
    assert code == 0, err
    code, out, err = run("compare", base, cand, "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    index = {}
    for side in ("baseline", "candidate"):
        code, out, err = run("evidence", doc[side]["id"], "--limit", "1000", "--format", "json")
        assert code == 0, err
        index[side] = json.loads(out)["items"]
    return report, doc, index


def _changed(row: dict) -> bool:  # type: ignore[type-arg]
    """A row the reader should find open: a count changed, something besides compile-phase timing changed, or the
    function is in one run only."""
    return row["status"] != "matched" or bool(row["deltas"]) or any(c["kind"] != "phase_time" for c in row["changes"])


@pytest.mark.parametrize("name", list(DRIVEN))
def test_html_report_navigates(run, tmp_path: Path, chromium_page: Chromium, name: str) -> None:  # type: ignore[no-untyped-def]
    """The page as a reader uses it: a bar that stays on top with the verdict and a table of contents whose links
    all land; details open for changed functions only, and a link to a closed one opens it; the functions table
    sorts by a clicked column; every graph, guard and generated-code record of the compared functions'
    compilations is linked from its compilation, and the link opens that record's text, as `dynamo-diff evidence`
    reads it."""
    report, doc, index = _driven_report(run, tmp_path, name)
    page = chromium_page
    page.open(report, 1400)

    # The bar: the verdict, and a table of contents whose every link has its section; it stays on top.
    assert page.js("document.querySelector('#toc .top-verdict').textContent") == doc["comparability"]["verdict"]
    targets = page.js("[...document.querySelectorAll('#toc a')].map(a => a.getAttribute('href').slice(1))")
    assert {"summary", "chart", "timeline", "rows", "details", "totals"} <= set(targets)  # type: ignore[arg-type]
    assert page.js(f"{json.dumps(targets)}.every(id => document.getElementById(id) !== null)")
    page.js("window.scrollTo(0, document.documentElement.scrollHeight)")
    assert page.js("window.scrollY") > 1000  # type: ignore[operator]
    assert page.js("document.getElementById('toc').getBoundingClientRect().top") == 0

    # Details: open exactly for the changed functions.
    rows = doc["functions"]
    opened = page.js(
        "Object.fromEntries([...document.querySelectorAll('section.row-detail')].map(s => "
        "[s.dataset.row, s.querySelector(':scope > details').open]))"
    )
    assert opened == {str(n): _changed(row) for n, row in enumerate(rows)}
    closed = [n for n, row in enumerate(rows) if not _changed(row)]
    if closed:  # a closed function opens from its link in the functions table, and is scrolled to
        page.js(f"document.querySelector('#functions a[href=\"#row-{closed[0]}\"]').click()")
        assert page.js(f"document.querySelector('#row-{closed[0]} > details').open") is True

    # Sorting: by compiles (the larger of the two runs, largest first), then reversed; by name.
    def compiles(row: dict) -> int:  # type: ignore[type-arg]
        return max(row[s]["counts"]["observed_compilation_identities"] for s in ("baseline", "candidate") if row[s])

    def table_rows() -> list[int]:
        """The JSON row of each table line, top to bottom (by the line's link to the row's details)."""
        hrefs = page.js("[...document.querySelectorAll('#functions tbody tr td:first-child a')].map(a => a.hash)")
        return [int(h.removeprefix("#row-")) for h in hrefs]  # type: ignore[union-attr]

    def click(heading: str) -> None:
        page.js(
            "[...document.querySelectorAll('#functions th button.sort')]"
            f".find(b => b.textContent.trim() === {json.dumps(heading)}).click()"
        )

    assert sorted(table_rows()) == list(range(len(rows)))
    click("compiles")
    assert [compiles(rows[n]) for n in table_rows()] == sorted((compiles(r) for r in rows), reverse=True)
    click("compiles")
    assert [compiles(rows[n]) for n in table_rows()] == sorted(compiles(r) for r in rows)
    click("function")
    names = [name_of(rows[n]) for n in table_rows()]
    assert names == sorted(names, key=str.lower)

    # Records: each compile id of a row links to every record of a linked kind the evidence index holds for it.
    expected = set()
    for row in rows:
        for side in ("baseline", "candidate"):
            if row[side]:
                cids = set(row[side]["compile_ids"])
                expected |= {
                    (side, e["id"]) for e in index[side] if e["kind"] in LINKED_KINDS and e["compile_id"] in cids
                }
    links = page.js(
        "[...document.querySelectorAll('a.rec-link')].map(a => [a.closest('.side').classList.contains('baseline') "
        "? 'baseline' : 'candidate', a.dataset.evidence, a.getAttribute('href')])"
    )
    assert {(side, ev) for side, ev, _ in links} == expected  # type: ignore[union-attr,misc]
    if name == "inductor-cache":
        assert any(e["kind"] == "inductor_output_code" for e in index["baseline"]), "the cold run generated code"
        assert page.js("[...document.querySelectorAll('a.rec-link')].some(a => a.textContent === 'generated code')")
    for side, ev, href in links[:6]:  # type: ignore[index]
        page.js("window.scrollTo(0, 0)")
        page.js(f"document.querySelector('a.rec-link[href=\"{href}\"]').click()")
        time.sleep(0.1)
        record = f"document.getElementById({json.dumps(href[1:])})"
        assert page.js(f"{record}.open") is True
        assert page.js(f"{record}.querySelector('pre').checkVisibility()") is True
        top = page.js(f"{record}.getBoundingClientRect().top")
        assert 0 <= top < 1000, f"{href} is scrolled to ({top})"  # type: ignore[operator]
        shown_text = page.js(f"{record}.querySelector('pre').textContent")
        code, out, err = run("evidence", doc[side]["id"], ev, "--max-chars", "12000", "--full", "--format", "json")
        assert code == 0, err
        excerpt = json.loads(out)
        assert shown_text == excerpt["text"]
        summary = page.js(f"{record}.querySelector('summary').textContent")
        whole = excerpt["next_offset"] is None
        assert (f"{excerpt['total_chars']:,} characters" in summary) and (("the first" in summary) != whole)


def name_of(row: dict) -> str:  # type: ignore[type-arg]
    """The row's name as the table writes it: the function and where it is."""
    side = row["baseline"] or row["candidate"]
    return side["qualified_name"]


@pytest.mark.parametrize("name", list(DRIVEN))
def test_html_report_at_800_and_1400_px(run, tmp_path: Path, chromium_page: Chromium, name: str) -> None:  # type: ignore[no-untyped-def]
    """At 800 px nothing makes the page itself scroll sideways and the charts keep a readable size (they scroll in
    their own box); screenshots at 800 and 1400 px are kept in test-artifacts/html/."""
    report, _, _ = _driven_report(run, tmp_path, name)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for width in (800, 1400):
        chromium_page.open(report, width)
        assert chromium_page.js("document.documentElement.scrollWidth") == width
        # Chart text at 12.5 px in the SVG's own units: drawn at least 9 px high.
        scales = chromium_page.js(
            "[...document.querySelectorAll('svg[viewBox]')].map(s => s.getBoundingClientRect().width / "
            "s.viewBox.baseVal.width)"
        )
        assert min(scales) * 12.5 >= 9, scales  # type: ignore[type-var,operator]
        shot = tmp_path / f"{name}-{width}.png"
        chromium_page.screenshot(shot, width)
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        _keep(shot)
