// `blocktrace record FIXTURE REQUESTS --out DIR`: answers each request and writes the exchange as
// DIR/NAME.request.json (the request as given) + DIR/NAME.response.json (our answer, no trailing
// newline; empty for no answer). The answer is pretty-printed, so that a golden's diff in review
// shows the field that changed; `--compact` writes it on one line, as it went over the wire. It never
// overwrites a file: goldens are written once, on purpose (`check --update` rewrites them). All or
// nothing: every file is written first as a temporary dot file beside its name, and only when all are
// whole are they linked into place; a failure (a full disk, a read-only mount) removes what this run
// made, so an interrupted or failed record leaves no partial golden (a killed one leaves dot files,
// which check's walk passes over).
import { existsSync, mkdirSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { GoldenError } from '../errors/goldenError.ts';
import { prettyJson } from '../golden/pretty.ts';
import { fileStems, readRequests, type NamedRequest } from '../golden/requests.ts';
import { requestMethods, selected } from '../golden/run.ts';
import { dispatch } from '../rpc/dispatch.ts';
import { goldenContext, write, type GoldenIo } from './check.ts';
import { placeNew } from './placeFile.ts';
import type { RecordCommand } from './goldenArgs.ts';

interface Planned {
  readonly request: NamedRequest;
  readonly requestFile: string;
  readonly responseFile: string;
}

/** The files to write, checked before anything is answered. Throws GoldenError. */
function plan(options: RecordCommand): Planned[] {
  const requests = readRequests(options.requests).filter((r) => selected(options.filters, r.name, requestMethods(r.request)));
  if (requests.length === 0) throw new GoldenError(`no request in ${options.requests} matches --filter ${options.filters.join(', ')}`);
  const planned = fileStems(requests).map((stem, i) => ({
    request: requests[i]!,
    requestFile: join(options.out, `${stem}.request.json`),
    responseFile: join(options.out, `${stem}.response.json`),
  }));
  for (const p of planned) {
    for (const file of [p.requestFile, p.responseFile]) {
      if (existsSync(file)) throw new GoldenError(`${file} exists; record never overwrites (remove it or choose another --out)`);
    }
  }
  return planned;
}

const code = (err: unknown): string => (err as NodeJS.ErrnoException).code ?? String(err);

/** The files of one record run: written aside, then put in place together, or all taken away. */
class Pending {
  private readonly temps: { temp: string; file: string }[] = [];
  private readonly placed: string[] = [];
  /** The directories this run made, deepest last. */
  private readonly made: string[] = [];

  /** Writes `text` to a temporary file beside `file`. Throws GoldenError. */
  write(file: string, text: string): void {
    const temp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
    try {
      const first = mkdirSync(dirname(file), { recursive: true });
      if (first !== undefined) this.made.push(...dirsBetween(resolve(first), resolve(dirname(file))));
      this.temps.push({ temp, file });
      writeFileSync(temp, text, { flag: 'wx' });
    } catch (err) {
      throw new GoldenError(`cannot write ${file}: ${code(err)}; no file was written`);
    }
  }

  /** Puts every file in place under its name, never over an existing one. Throws GoldenError. */
  commit(): void {
    for (const { temp, file } of this.temps) {
      try {
        placeNew(temp, file);
        this.placed.push(file);
      } catch (err) {
        throw new GoldenError(code(err) === 'EEXIST' ? `${file} exists; record never overwrites (remove it or choose another --out)` : `cannot write ${file}: ${code(err)}; no file was written`);
      }
    }
    this.cleanTemps();
  }

  /** Takes away every file and directory this run made. */
  abandon(): void {
    for (const file of this.placed) quietly(() => unlinkSync(file));
    this.cleanTemps();
    for (const dir of this.made.reverse()) quietly(() => rmdirSync(dir));
  }

  private cleanTemps(): void {
    for (const { temp } of this.temps) quietly(() => unlinkSync(temp));
  }
}

/** `from` and every directory below it down to `to` (mkdirSync's first directory made, and the one asked for). */
function dirsBetween(from: string, to: string): string[] {
  const dirs = [from];
  for (const part of relative(from, to).split(/[\\/]/).filter((p) => p !== '')) dirs.push(join(dirs[dirs.length - 1]!, part));
  return dirs;
}

function quietly(act: () => void): void {
  try {
    act();
  } catch {
    // already gone
  }
}

export async function record(options: RecordCommand, io: GoldenIo): Promise<number> {
  try {
    const planned = plan(options);
    const chain = await io.load(options.fixture, options.cache);
    if (chain === undefined) return 2;
    const ctx = goldenContext(chain, io.log, options.allTracers);
    const pending = new Pending();
    try {
      for (const { request, requestFile, responseFile } of planned) {
        const answer = await dispatch(request.request, ctx);
        pending.write(requestFile, request.request);
        // prettyJson keeps an answer that is not JSON as it is
        pending.write(responseFile, answer === undefined ? '' : options.compact ? answer : prettyJson(answer));
      }
      pending.commit();
    } catch (err) {
      pending.abandon();
      throw err;
    }
    await write(io.stdout, `${planned.length} recorded in ${options.out}\n`);
    return 0;
  } catch (err) {
    if (!(err instanceof GoldenError)) throw err;
    io.log(`blocktrace: ${err.message}`);
    return 2;
  }
}
