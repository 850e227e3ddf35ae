// Which compiled contract a running code is. The code on chain differs from the artifact's where the
// deployment wrote something in: linked library addresses, immutables (runtime code), constructor
// arguments after the creation code; and the metadata trailer (its hash follows the sources' paths
// and settings, not the code) may differ too. Those bytes are left out of the comparison; every
// other byte, and the code's length, must be equal: a wrong line is worse than no line.
import { linkedRanges, placeholdersZeroed } from '../abi/bytecode.ts';
import type { BuildContract, CodeRange, CompiledCode } from './builds.ts';

export type CodeKind = 'creation' | 'runtime';

export interface CodeMatch {
  readonly contract: BuildContract;
  readonly kind: CodeKind;
  readonly code: CompiledCode;
}

/** No contract fits: why, in a few words (`no artifact matches this code`, `code differs from Vault`). */
export interface NoMatch {
  readonly reason: string;
}

interface Template {
  readonly contract: BuildContract;
  readonly kind: CodeKind;
  readonly code: CompiledCode;
  readonly bytes: Uint8Array;
  /** 1 where the running code must equal `bytes`. */
  readonly fixed: Uint8Array;
}

const CBOR_KEYS = [
  [0x64, 0x69, 0x70, 0x66, 0x73], // "ipfs"
  [0x65, 0x62, 0x7a, 0x7a, 0x72], // "bzzr" (bzzr0, bzzr1)
  [0x64, 0x73, 0x6f, 0x6c, 0x63], // "solc"
  [0x6c, 0x65, 0x78, 0x70, 0x65], // "experimental"
];

/**
 * solc's metadata trailers in a code: a CBOR map (a1..a5, then one of solc's keys) followed by its
 * own length in two bytes. A creation code holds its runtime code's trailer and, for each contract it
 * creates, that one's trailers as well; all are found.
 */
export function metadataTrailers(bytes: Uint8Array): CodeRange[] {
  const out: CodeRange[] = [];
  for (let p = 0; p + 7 < bytes.length; p++) {
    const head = bytes[p]!;
    if (head < 0xa1 || head > 0xa5) continue;
    if (!CBOR_KEYS.some((key) => key.every((b, k) => bytes[p + 1 + k] === b))) continue;
    for (let q = p + 6; q + 1 < bytes.length && q - p <= 256; q++) {
      if (((bytes[q]! << 8) | bytes[q + 1]!) === q - p) {
        out.push({ start: p, length: q + 2 - p });
        p = q + 1;
        break;
      }
    }
  }
  return out;
}

function template(contract: BuildContract, kind: CodeKind, code: CompiledCode): Template {
  const bytes = Uint8Array.from(Buffer.from(placeholdersZeroed(code.object), 'hex'));
  const fixed = new Uint8Array(bytes.length).fill(1);
  const free = (r: CodeRange): void => {
    fixed.fill(0, r.start, Math.min(r.start + r.length, bytes.length));
  };
  for (const r of code.links) free(r);
  for (const r of code.immutables) free(r);
  for (const r of metadataTrailers(bytes)) free(r);
  // placeholders an unlinked build left (its links say where too) and a library's own address
  for (const r of linkedRanges(code.object)) free(r);
  return { contract, kind, code, bytes, fixed };
}

function differences(t: Template, code: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < t.bytes.length; i++) if (t.fixed[i] === 1 && t.bytes[i] !== code[i]) n++;
  return n;
}

/** Every contract's codes, to match running code against. */
export class CodeMatcher {
  private readonly runtime = new Map<number, Template[]>();
  private readonly creation: Template[] = [];
  private readonly memo = new Map<string, CodeMatch | NoMatch>();

  /** `contracts` in order of preference: the first of several that fit wins (a build with sources before bare artifacts). */
  constructor(contracts: readonly BuildContract[]) {
    for (const c of contracts) {
      if (c.runtime !== undefined) {
        const t = template(c, 'runtime', c.runtime);
        const list = this.runtime.get(t.bytes.length) ?? [];
        list.push(t);
        this.runtime.set(t.bytes.length, list);
      }
      if (c.creation !== undefined) this.creation.push(template(c, 'creation', c.creation));
    }
  }

  /** The contract whose code `code` is: as deployed (runtime) or as init code (creation, arguments after it). */
  match(code: Uint8Array, kind: CodeKind): CodeMatch | NoMatch {
    const key = `${kind}:${Buffer.from(code).toString('hex')}`;
    let found = this.memo.get(key);
    if (found === undefined) this.memo.set(key, (found = this.find(code, kind)));
    return found;
  }

  private find(code: Uint8Array, kind: CodeKind): CodeMatch | NoMatch {
    if (code.length === 0) return { reason: 'no code' };
    const candidates = kind === 'runtime' ? this.runtime.get(code.length) ?? [] : this.creation.filter((t) => t.bytes.length <= code.length);
    let nearest: { t: Template; diff: number } | undefined;
    for (const t of candidates) {
      const diff = differences(t, code);
      if (diff === 0) return { contract: t.contract, kind: t.kind, code: t.code };
      // the creation code with the most bytes in common is the nearest; a runtime code must have the same length
      if (nearest === undefined || diff < nearest.diff) nearest = { t, diff };
    }
    if (nearest !== undefined && nearest.diff * 10 <= nearest.t.bytes.length) {
      return { reason: `code differs from ${nearest.t.contract.name} (${nearest.t.contract.file}, ${nearest.diff} of ${nearest.t.bytes.length} bytes): rebuilt since it was deployed?` };
    }
    return { reason: `no artifact matches this ${kind === 'creation' ? 'init code' : 'code'}` };
  }
}
