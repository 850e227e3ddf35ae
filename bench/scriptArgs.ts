// The command line of a bench script run alone or by bench/run.ts: `--json` (one JSON line for
// run.ts instead of a Markdown table) and `--NAME N` for each of its counts, N a positive integer.

export function scriptOptions<K extends string>(argv: readonly string[], script: string, defaults: Readonly<Record<K, number>>): Record<K, number> & { json: boolean } {
  const out = { ...defaults, json: false } as Record<K, number> & { json: boolean };
  const counts = Object.keys(defaults) as K[];
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i]?.replace(/^--/, '') as K;
    const value = Number(argv[i + 1]);
    if (argv[i] === '--json') out.json = true;
    else if (counts.includes(key) && Number.isInteger(value) && value >= 1) (out[key] = value as (typeof out)[K]), i++;
    else throw new Error(`usage: bun bench/${script} ${counts.map((k) => `[--${k} N]`).join(' ')} [--json] (got ${argv.join(' ')})`);
  }
  return out;
}
