// The benchmark's result rows: one metric, both measurements, the ratio, the issue's target.
// Rendered as a Markdown table (stdout, README) and kept as JSON (bench/results/latest.json).

export interface Target {
  readonly op: '<' | '<=' | '>=';
  readonly value: number;
  /** What the target bounds: blocktrace's figure (the default) or its ratio to anvil's. */
  readonly of?: 'ratio';
}

export interface Row {
  readonly metric: string;
  readonly unit: string;
  readonly blocktrace: number | null;
  readonly anvil: number | null;
  /** blocktrace / anvil, when both were measured. */
  readonly ratio: number | null;
  readonly target: Target | null;
  /** null when the row has no target or blocktrace was not measured. */
  readonly met: boolean | null;
  readonly note?: string;
}

export function row(metric: string, unit: string, blocktrace: number | null, anvil: number | null, target: Target | null = null, note?: string): Row {
  const ratio = blocktrace !== null && anvil !== null && anvil !== 0 ? round(blocktrace / anvil, 4) : null;
  const measured = target?.of === 'ratio' ? ratio : blocktrace;
  const met = target === null || measured === null ? null : meets(measured, target);
  return {
    metric, unit,
    blocktrace: blocktrace === null ? null : round(blocktrace, 3),
    anvil: anvil === null ? null : round(anvil, 3),
    ratio, target, met,
    ...(note !== undefined ? { note } : {}),
  };
}

function meets(value: number, target: Target): boolean {
  switch (target.op) {
    case '<': return value < target.value;
    case '<=': return value <= target.value;
    case '>=': return value >= target.value;
  }
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

function show(value: number | null, unit: string): string {
  if (value === null) return '—';
  const digits = Math.abs(value) >= 1000 ? 0 : Math.abs(value) >= 100 ? 1 : Math.abs(value) >= 10 ? 2 : 3;
  const text = value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return unit === '×' ? `${text}×` : `${text} ${unit}`;
}

export function markdown(rows: readonly Row[]): string {
  const lines = [
    '| metric | blocktrace | anvil | ratio blocktrace/anvil | target | met? |',
    '|---|---:|---:|---:|---|---|',
  ];
  for (const r of rows) {
    const ratio = r.ratio === null ? '—' : `${r.ratio.toLocaleString('en-US', { maximumSignificantDigits: 3 })}×`;
    const target = r.target === null ? '—' : r.target.of === 'ratio' ? `${r.target.op} ${r.target.value}× anvil` : `${r.target.op} ${show(r.target.value, r.unit)}`;
    const met = r.met === null ? '—' : r.met ? 'yes' : '**no**';
    lines.push(`| ${r.metric}${r.note !== undefined ? ` (${r.note})` : ''} | ${show(r.blocktrace, r.unit)} | ${show(r.anvil, r.unit)} | ${ratio} | ${target} | ${met} |`);
  }
  return `${lines.join('\n')}\n`;
}
