// `--ignore` rules: `NAME` drops every object member named NAME at any depth; `$.json.path` drops the
// one member or item at that path (`[*]` and `.*` match any index or key). Noise such as block hashes
// of a re-mined chain is named here instead of loosening the whole comparison.
import type { PathStep } from './types.ts';

type PatternStep = string | number | '*';

export interface IgnoreRules {
  readonly names: ReadonlySet<string>;
  readonly paths: readonly (readonly PatternStep[])[];
}

export const NO_IGNORES: IgnoreRules = { names: new Set(), paths: [] };

const NAME = /^[A-Za-z0-9_]+$/;
const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*/;

/** `$.result[*].blockHash` → ['result', '*', 'blockHash']; undefined when it is not such a path. */
export function parseJsonPath(rule: string): PatternStep[] | undefined {
  if (!rule.startsWith('$')) return undefined;
  const steps: PatternStep[] = [];
  let rest = rule.slice(1);
  while (rest !== '') {
    if (rest.startsWith('.*')) {
      steps.push('*');
      rest = rest.slice(2);
    } else if (rest.startsWith('.')) {
      const id = IDENT.exec(rest.slice(1))?.[0];
      if (id === undefined) return undefined;
      steps.push(id);
      rest = rest.slice(1 + id.length);
    } else if (rest.startsWith('[*]')) {
      steps.push('*');
      rest = rest.slice(3);
    } else if (/^\[\d+\]/.test(rest)) {
      const digits = /^\[(\d+)\]/.exec(rest)![1]!;
      steps.push(Number(digits));
      rest = rest.slice(digits.length + 2);
    } else if (rest.startsWith('["')) {
      // a JSON string key: the shortest prefix that parses and is followed by `]`
      const end = /^\[("(?:[^"\\]|\\.)*")\]/.exec(rest);
      if (end === null) return undefined;
      try {
        steps.push(JSON.parse(end[1]!) as string);
      } catch {
        return undefined;
      }
      rest = rest.slice(end[0].length);
    } else {
      return undefined;
    }
  }
  return steps.length === 0 ? undefined : steps;
}

/** The rules of `--ignore` arguments; throws an Error naming the first that is neither form. */
export function parseIgnores(rules: readonly string[]): IgnoreRules {
  const names = new Set<string>();
  const paths: PatternStep[][] = [];
  for (const rule of rules) {
    if (NAME.test(rule)) {
      names.add(rule);
      continue;
    }
    const path = parseJsonPath(rule);
    if (path === undefined) throw new Error(`--ignore ${JSON.stringify(rule)} is neither a member name ([A-Za-z0-9_]+) nor a JSON path such as '$.result[*].blockHash'`);
    paths.push(path);
  }
  return { names, paths };
}

export const hasIgnores = (rules: IgnoreRules): boolean => rules.names.size > 0 || rules.paths.length > 0;

/** Whether the member or item at `steps` (its last step being its key or index) is dropped. */
export function isIgnored(rules: IgnoreRules, steps: readonly PathStep[]): boolean {
  const last = steps.at(-1);
  if (typeof last === 'string' && rules.names.has(last)) return true;
  return rules.paths.some((p) => p.length === steps.length && p.every((s, i) => s === '*' || s === steps[i]));
}
