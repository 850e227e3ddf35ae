// Which function, modifier or constructor a source range belongs to. From the build's ASTs where it
// has them; else from a scan of the source text (a Foundry out/ built without ASTs), which finds the
// same declarations: `contract|library|interface X`, `function f(...)`, `modifier m(...)`,
// `constructor`, `fallback`, `receive`, each with the braces of its body, comments and strings left out.
import type { Build, FunctionDef, SourceFile, Variable } from './builds.ts';

export class FunctionIndex {
  /** Per source id, its definitions, outermost first. */
  private readonly byFile = new Map<number, FunctionDef[]>();

  constructor(build: Build) {
    const defs = [...build.functions];
    const scanned = new Set(defs.map((d) => d.file));
    for (const source of build.sources.values()) {
      if (!scanned.has(source.id) && source.content !== undefined) defs.push(...scanDeclarations(source));
    }
    for (const def of defs) {
      const list = this.byFile.get(def.file) ?? [];
      list.push(def);
      this.byFile.set(def.file, list);
    }
    for (const list of this.byFile.values()) list.sort((a, b) => a.start - b.start || b.length - a.length);
  }

  /** The innermost definition holding the range (its own range first: a function's entry maps to the whole definition). */
  at(file: number, start: number, length: number, kind?: FunctionDef['kind']): FunctionDef | undefined {
    let best: FunctionDef | undefined;
    for (const def of this.byFile.get(file) ?? []) {
      if (def.start > start) break;
      if (kind !== undefined && def.kind !== kind) continue;
      if (start + length <= def.start + def.length) best = def;
    }
    return best;
  }

  /** The modifier whose body holds the range, if any. */
  modifierAt(file: number, start: number, length: number): FunctionDef | undefined {
    return this.at(file, start, length, 'modifier');
  }
}

const DECLARATION = /\b(contract|library|interface|function|modifier|constructor|fallback|receive)\b/g;

/** The text with comments and string literals blanked (same length, so offsets hold). */
function blanked(text: string): string {
  return text.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\/|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, (m) => m.replace(/[^\n]/g, ' '));
}

/** Index just past the brace that closes the one at `open`, or the text's end. */
function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return i + 1;
  }
  return text.length;
}

function parameters(list: string): Variable[] {
  const out: Variable[] = [];
  let depth = 0;
  let item = '';
  for (const ch of `${list},`) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      const words = item.trim().split(/\s+/).filter((w) => w !== '');
      if (words.length > 0) {
        const named = words.length > 1 && !['memory', 'storage', 'calldata', 'payable'].includes(words[words.length - 1]!);
        out.push({ name: named ? words[words.length - 1]! : '', type: (named ? words.slice(0, -1) : words).join(' ') });
      }
      item = '';
    } else item += ch;
  }
  return out;
}

/** The text between the parenthesis at or after `from` and its match, and the index past it. */
function parenthesized(text: string, from: number): [string, number] | undefined {
  const open = text.indexOf('(', from);
  if (open === -1) return undefined;
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return [text.slice(open + 1, i), i + 1];
  }
  return undefined;
}

/** Declarations found in the source text (byte offsets, as source maps give them). */
export function scanDeclarations(source: SourceFile): FunctionDef[] {
  // one character per byte, so string offsets are the source map's byte offsets
  const text = blanked(Buffer.from(source.content ?? '', 'utf8').toString('latin1'));
  const contracts: { name: string; start: number; end: number }[] = [];
  const out: FunctionDef[] = [];
  for (const m of text.matchAll(DECLARATION)) {
    const keyword = m[1]!;
    const start = m.index;
    const body = text.slice(start).search(/[{;]/);
    if (body === -1) continue;
    const open = start + body;
    const end = text[open] === '{' ? closing(text, open) : open + 1;
    if (keyword === 'contract' || keyword === 'library' || keyword === 'interface') {
      const name = /^\w+\s+(\w+)/.exec(text.slice(start))?.[1];
      if (name !== undefined) contracts.push({ name, start, end });
      continue;
    }
    // `function` inside a type (`function (uint) external returns (bool) f;`) has no name: skipped
    const named = /^(function|modifier)\s+(\w+)/.exec(text.slice(start));
    if ((keyword === 'function' || keyword === 'modifier') && named === undefined) continue;
    const params = parenthesized(text, start);
    const returns = params !== undefined && params[1] < open ? /returns\s*\(/.exec(text.slice(params[1], open)) : null;
    const returned = returns !== null && params !== undefined ? parenthesized(text, params[1] + returns.index) : undefined;
    const contract = contracts.filter((c) => c.start < start && end <= c.end).pop()?.name ?? '';
    const kind = keyword as FunctionDef['kind'];
    out.push({
      file: source.id,
      start,
      length: end - start,
      contract,
      name: named?.[2] ?? keyword,
      kind,
      parameters: params !== undefined && params[1] <= open ? parameters(params[0]) : [],
      returns: returned !== undefined ? parameters(returned[0]) : [],
    });
  }
  return out;
}
