"""The page's inline style: light and dark colour schemes (prefers-color-scheme), readable from 800 to 1400 px and
wider (below 1,000 px the cards stack and the charts keep a readable size and scroll sideways in their box)."""

from __future__ import annotations

CSS = """
:root{
  --bg:#f6f7f9;--panel:#ffffff;--fg:#1d2330;--muted:#5d6675;--line:#dde1e7;--code-bg:#f3f5f8;
  --good:#1a7f37;--good-bg:#e6f4ea;--bad:#c0322b;--bad-bg:#fdecea;--warn:#9a6700;--warn-bg:#fff6d6;
  --neutral-bg:#eef1f6;--accent:#3b5bdb;
  --base:#8f9bb3;--cand:#e8710a;
  --ok:#2f9e44;--fail:#e03131;--nograph:#adb5bd;--unknown:#f59f00;--unresolved:#9c36b5;
  --chg-a:#fde2e1;--chg-b:#dcf5e3;--brk:#ffe3e3;
  --ph-dynamo:#4c6ef5;--ph-aot_backend:#15aabf;--ph-inductor:#f76707;--ph-code_gen:#ae3ec9;
}
@media (prefers-color-scheme: dark){
  :root{
    --bg:#14171c;--panel:#1c2027;--fg:#e4e7ec;--muted:#9aa3b2;--line:#323844;--code-bg:#161a20;
    --good:#57d07a;--good-bg:#15301f;--bad:#ff7b72;--bad-bg:#3a1a1a;--warn:#e3b341;--warn-bg:#352a0c;
    --neutral-bg:#252a33;--accent:#8ca2ff;
    --base:#7d8799;--cand:#ff9f43;
    --ok:#40c057;--fail:#ff6b6b;--nograph:#6c757d;--unknown:#fab005;--unresolved:#cc5de8;
    --chg-a:#4a2326;--chg-b:#1d3d27;--brk:#5a1f1f;
  }
}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif}
main{max-width:1360px;margin:0 auto;padding:20px 20px 60px}
h1{font-size:22px;margin:0}h2{font-size:18px;margin:0 0 10px}h3{font-size:15px;margin:14px 0 6px}
h4{font-size:14px;margin:0 0 6px;font-weight:600}
section,header{background:var(--panel);border:1px solid var(--line);border-radius:10px;padding:16px 20px;
  margin:0 0 16px}
code,pre,.code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
pre{background:var(--code-bg);border:1px solid var(--line);border-radius:6px;padding:8px 10px;margin:6px 0;
  white-space:pre-wrap;word-break:break-word;max-height:22em;overflow:auto}
a{color:var(--accent);text-decoration:none}a:hover{text-decoration:underline}
table{border-collapse:collapse;margin:6px 0}
td,th{border-bottom:1px solid var(--line);padding:4px 10px;vertical-align:top;text-align:left}
th{color:var(--muted);font-weight:600;font-size:12.5px}
.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.note,.sub,.reason,.pieces{color:var(--muted)}.sub{font-weight:400;font-size:13px;margin-left:8px}
.empty,.none{color:var(--muted);font-style:italic}
.warn{background:var(--warn-bg);color:var(--warn);padding:6px 10px;border-radius:6px;margin:10px 0 0}
details>summary{cursor:pointer}
/* header */
.pair-name{font-weight:400;color:var(--muted);margin-left:6px}
.verdict{border-radius:8px;padding:8px 12px;background:var(--neutral-bg);border:1px solid var(--line)}
.verdict-word{font-size:16px;font-weight:700;text-transform:uppercase;letter-spacing:.04em}
.verdict-comparable{background:var(--good-bg)}.verdict-comparable .verdict-word{color:var(--good)}
.verdict-confounded{background:var(--bad-bg)}.verdict-confounded .verdict-word{color:var(--bad)}
.verdict-unknown{background:var(--warn-bg)}.verdict-unknown .verdict-word{color:var(--warn)}
.verdict-why{color:var(--fg)}
.runs{display:grid;grid-template-columns:1fr 1fr 1fr;gap:14px;margin:14px 0}
.run-card{border:1px solid var(--line);border-left:6px solid var(--muted);border-radius:8px;padding:8px 12px}
.run-good{border-left-color:var(--good)}.run-bad{border-left-color:var(--bad);background:var(--bad-bg)}
.run-unknown{border-left-color:var(--warn)}
.run-empty{border-left-color:var(--bad);background:var(--bad-bg)}.run-compiled{font-weight:700;color:var(--bad)}
.side-name{text-transform:uppercase;font-size:11px;letter-spacing:.08em;color:var(--muted);font-weight:600}
.run-label{font-size:16px;font-weight:600}.run-state{font-weight:700}
.run-good .run-state{color:var(--good)}.run-bad .run-state{color:var(--bad)}.run-unknown .run-state{color:var(--warn)}
.run-summary,.run-torch{color:var(--muted)}.reasons{margin:4px 0 0;padding-left:18px;color:var(--muted)}
.tiles{display:flex;gap:12px;flex-wrap:wrap}
.tile{flex:1 1 180px;border-radius:8px;padding:10px 14px;background:var(--neutral-bg)}
.tile-label{color:var(--muted);font-size:12.5px}.tile-value{font-size:22px;font-weight:650;font-variant-numeric:tabular-nums}
.tile-delta{font-weight:600}
.tile-good{background:var(--good-bg)}.tile-good .tile-delta{color:var(--good)}
.tile-bad{background:var(--bad-bg)}.tile-bad .tile-delta{color:var(--bad)}
.tile-same .tile-delta,.tile-neutral .tile-delta{color:var(--muted)}
/* charts */
svg{display:block;max-width:100%;height:auto;font-family:system-ui,-apple-system,"Segoe UI",sans-serif}
svg text{fill:var(--fg);font-size:12.5px}svg .tick,svg .cid{fill:var(--muted);font-size:11.5px}
svg .absent{fill:var(--muted);font-style:italic;font-size:11.5px}
svg .grid{stroke:var(--line);stroke-width:1}svg .lane{stroke:var(--line);stroke-dasharray:2 3}
svg a text.fn{fill:var(--accent)}
.bar.baseline{fill:var(--base)}.bar.candidate{fill:var(--cand)}
svg .change.delta{font-weight:600}svg .change.noise{fill:var(--muted)}
svg .inbar,svg .cid.in{fill:#fff;font-size:11.5px}
.phase-dynamo{fill:var(--ph-dynamo);background:var(--ph-dynamo)}
.phase-aot_backend{fill:var(--ph-aot_backend);background:var(--ph-aot_backend)}
.phase-inductor{fill:var(--ph-inductor);background:var(--ph-inductor)}
.phase-code_gen{fill:var(--ph-code_gen);background:var(--ph-code_gen)}
.mark{stroke:var(--panel);stroke-width:1}
.outcome-completed{fill:var(--ok);background:var(--ok)}.outcome-failed{fill:var(--fail);background:var(--fail)}
.outcome-no_graph_observed{fill:var(--nograph);background:var(--nograph)}
.outcome-unknown{fill:var(--unknown);background:var(--unknown)}
.outcome-unresolved{fill:var(--unresolved);background:var(--unresolved)}
.mark.recompile{stroke:var(--fg);stroke-width:2.5}
.mark.estimated{stroke:var(--fg);stroke-dasharray:3 2;stroke-width:1.5}
.break-tick{fill:var(--bad)}
.legend{display:flex;flex-wrap:wrap;gap:6px 18px;color:var(--muted);font-size:12.5px;margin:6px 0}
.key{display:inline-flex;align-items:center;gap:6px}
.swatch{display:inline-block;width:14px;height:12px;border-radius:2px}
.bar-baseline{background:var(--base)}.bar-candidate{background:var(--cand)}
.recompile-key{background:var(--ok);outline:2.5px solid var(--fg);outline-offset:-2px}
.tri{display:inline-block;width:0;height:0;border-left:5px solid transparent;border-right:5px solid transparent;
  border-top:7px solid var(--bad)}
/* tables of rows */
#functions{width:100%}#functions td{font-size:13px}#functions ul{margin:0;padding-left:16px}
#functions tr.quiet{opacity:.6}td.changed{font-weight:700}
.badge{display:inline-block;border-radius:10px;padding:0 8px;font-size:12px;background:var(--neutral-bg);
  white-space:nowrap}
.status-baseline_only{background:var(--bad-bg)}.status-candidate_only{background:var(--warn-bg)}
.status-ambiguous{background:var(--warn-bg)}.sev-warning,.sev-error{background:var(--warn-bg)}
/* details */
.row-detail{padding:10px 20px}
.row-detail>details>summary{font-size:15px;padding:4px 0}
.fn-name{font-weight:650}.headline{color:var(--muted);margin-left:8px}
.counts td,.counts th{padding:2px 10px;font-size:13px}.counts tr.phase td{color:var(--muted)}
.change{border-top:1px solid var(--line);padding:10px 0 4px}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:14px}.pair>div{min-width:0}
.side{border-radius:6px;padding:6px 10px;background:var(--code-bg)}
.side p{margin:2px 0}.sites{margin:2px 0;padding-left:18px}
.evidence{margin-top:4px;font-size:12.5px}.evidence summary{color:var(--muted)}
.ev{color:var(--muted);margin-right:10px}
.source{border-top:1px solid var(--line);padding-top:10px}
.code-where{color:var(--muted);font-size:12.5px;margin:2px 0 4px}
table.code{width:100%;background:var(--code-bg);border:1px solid var(--line);border-radius:6px;margin:0}
table.code td{border:0;padding:0 8px;line-height:1.45}
table.code td.ln{color:var(--muted);text-align:right;user-select:none;width:3.5em;font-size:12px}
table.code td.src code{white-space:pre-wrap;word-break:break-word}
.code-side.baseline tr.chg td{background:var(--chg-a)}.code-side.candidate tr.chg td{background:var(--chg-b)}
tr.chg td.ln{font-weight:700;color:var(--fg)}
tr.site td.src{box-shadow:inset 3px 0 0 var(--bad)}
.site-note{margin-left:10px;font-size:11.5px;color:var(--bad);font-weight:600}
/* the bar that stays on top: verdict, pair, contents */
#toc{position:sticky;top:0;z-index:10;display:flex;flex-wrap:wrap;align-items:center;gap:4px 14px;
  padding:6px 20px;background:var(--panel);border-bottom:1px solid var(--line);box-shadow:0 1px 4px rgba(0,0,0,.08)}
#toc ul{display:flex;flex-wrap:wrap;gap:2px 12px;list-style:none;margin:0;padding:0;font-size:13px}
.top-verdict{font-weight:700;text-transform:uppercase;letter-spacing:.04em;font-size:12.5px;border-radius:6px;
  padding:1px 8px;background:var(--neutral-bg)}
.top-verdict.verdict-comparable{color:var(--good)}.top-verdict.verdict-confounded{color:var(--bad)}
.top-verdict.verdict-unknown{color:var(--warn)}
.top-pair{font-weight:600}.top-warn{color:var(--bad);font-weight:700}
[id]{scroll-margin-top:64px}
/* wide things scroll in their own box rather than shrink */
.wide{overflow-x:auto;max-width:100%}
.wide>svg{min-width:1000px}
#functions td.what{min-width:240px}
#comparability td,#ranks td,#notices li,.verdict-why,.reason{overflow-wrap:anywhere}
th button.sort{font:inherit;color:inherit;background:none;border:0;padding:0;cursor:pointer;text-align:inherit}
th button.sort:hover{color:var(--accent)}
th[aria-sort=ascending] button.sort::after{content:" \\25B2"}
th[aria-sort=descending] button.sort::after{content:" \\25BC"}
/* compilations and their records */
.compilations{border-top:1px solid var(--line);padding:10px 0 4px}
ul.cmps{list-style:none;margin:2px 0;padding:0}ul.cmps li{margin:2px 0}
.cmp-outcome{color:var(--muted);margin-right:6px}
.rec-link{display:inline-block;border:1px solid var(--line);border-radius:10px;padding:0 8px;margin:1px 2px;
  font-size:12.5px;background:var(--panel)}
#records .record{border-top:1px solid var(--line);padding:4px 0}
#records .record>summary{padding:2px 0}
#records details.record:target,#records details.record[open]{background:var(--neutral-bg);border-radius:6px;
  padding:4px 8px}
#records pre{max-height:40em}
.snapshot-note{margin:8px 0}
@media (max-width:1000px){
  main{padding:12px 10px 40px}
  section,header{padding:12px 12px}
  .runs{grid-template-columns:1fr 1fr}.runs .verdict{grid-column:1/-1}
  .pair{grid-template-columns:1fr}
  #toc{padding:6px 10px}
  #functions .match{display:none}#functions td.time{white-space:normal}
}
"""
