"""The lecture stylesheet (the Lecture page and its slide export)."""

from __future__ import annotations

LECTURE_CSS = """
.ri-lec{display:flex;flex-direction:column;gap:6px;box-sizing:border-box;min-height:0;
  font-size:clamp(13px,calc(0.78vw + 3px),18px)}
.ri-lec *{box-sizing:border-box}
.ri-lec-verdict{border-radius:6px;padding:3px 10px;border:1px solid #d0d7de;font-weight:600;
  line-height:1.35;flex:0 0 auto}
.ri-lec-verdict.lost{background:#ffebe9;border-color:#ff8182;color:#82071e}
.ri-lec-verdict.ok{background:#ddf4ff;border-color:#54aeff;color:#0a3069}
.ri-lec-verdict.open{background:#fff8c5;border-color:#d4a72c;color:#4d2d00}
.ri-lec-verdict.none{background:#f6f8fa;color:#57606a;font-weight:400}
.ri-lec-top{flex:0 0 auto;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;font-size:1.0em}
.ri-lec-label{font-weight:700}
.ri-lec-question{font-weight:600;color:#0969da}
.ri-lec-grid{flex:1 1 auto;min-height:0;display:grid;
  grid-template-columns:1.35fr 1.1fr 0.95fr 1.05fr;gap:8px}
.ri-lec-pane{display:flex;flex-direction:column;min-height:0;min-width:0;border:1px solid #d0d7de;
  border-radius:8px;background:#fff}
.ri-lec-pane.hidden{background:#f6f8fa;border-style:dashed}
.ri-lec-h{flex:0 0 auto;margin:0;padding:4px 8px;font-size:1.0em;font-weight:700;
  border-bottom:1px solid #d0d7de;background:#f6f8fa;border-radius:8px 8px 0 0;line-height:1.4}
.ri-lec-body{flex:1 1 auto;min-height:0;overflow:auto;padding:6px 8px}
.ri-lec-hidden{height:100%;display:flex;flex-direction:column;align-items:center;
  justify-content:center;color:#57606a;text-align:center;gap:6px}
.ri-lec-q{font-size:3em;font-weight:700;color:#8c959f}
.ri-lec-facts{font-size:0.85em;margin-bottom:4px}
.ri-lec-warn{color:#82071e;background:#ffebe9;border-radius:4px;padding:2px 6px;margin:2px 0;
  font-size:0.9em}
.ri-lec-note{color:#57606a;background:#f6f8fa;border-radius:4px;padding:6px}
.ri-lec-note.warning,.ri-lec-note.error{background:#ffebe9;color:#82071e}
.ri-lec-note.ri-lec-making{background:#ddf4ff;color:#0a3069;margin-bottom:4px}
.ri-lec .ri-tokens{max-height:none;overflow:visible;border:0;padding:0;font-size:0.8em;
  line-height:1.6}
.ri-lec .ri-text{font-size:1em}
.ri-lec .ri-legend{font-size:0.8em;margin-bottom:4px;line-height:1.8}
.ri-lec-quality{font-size:0.75em;color:#57606a;margin-bottom:4px}
.ri-lec-claim{margin:3px 0;line-height:1.5}
.ri-lec-detail{margin-top:6px;border-top:1px solid #d0d7de;padding-top:4px}
.ri-lec-minor{opacity:0.75;font-size:0.9em}
.ri-lf-table{border-collapse:collapse;width:100%;table-layout:fixed;font-size:0.85em;
  margin-bottom:6px}
.ri-lf-table th{font-weight:600;text-align:center;border-bottom:2px solid #d0d7de;padding:1px 2px;
  overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.ri-lf-table th:first-child,.ri-lf-table td:first-child{width:1.8em}
.ri-lf-table td{text-align:center;padding:1px 2px;border-bottom:1px solid #eaeef2;
  white-space:nowrap}
.ri-lf{display:inline-block;min-width:2.2em;border-radius:4px;padding:0 3px;background:#ddf4ff;
  font-weight:600}
.ri-lf-gold{background:#fff4c2;outline:2px solid #d4a72c;color:#1f2328}
.ri-lf-drop{background:#f6f8fa;color:#8c959f;text-decoration:line-through;font-weight:400}
.ri-lf-gold.ri-lf-drop{outline-color:#cf222e;background:#ffebe9;color:#82071e}
.ri-lf-fates{font-size:0.82em}
.ri-lf-fates .ri-mono{font-size:0.95em}
.ri-lf-fate{padding:0 4px;border-bottom:1px solid #eaeef2;line-height:1.6;overflow:hidden;
  display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:2;line-clamp:2}
.ri-lf-fate .ri-chip{margin:0 2px;line-height:1.3}
.ri-lec-more{display:block;color:#57606a;font-style:italic;font-size:0.9em;padding:1px 4px;
  line-height:1.25}
.ri-lf-fate.ri-goldrow{background:#fff4c2}
.ri-lf-fate.ri-dimrow{color:#8c959f}
.ri-lf-code{display:inline-block;min-width:2em;font-weight:700}
.ri-lec.ri-lec-big{font-size:clamp(17px,calc(1vw + 4px),24px)}
.ri-lec .ri-chip{font-size:0.88em}
.ri-lec .ri-src-h{font-size:0.85em}
"""
