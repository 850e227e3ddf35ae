// `blocktrace record FIXTURE REQUESTS --out DIR`: answers each request and writes the exchange as
// DIR/NAME.request.json (the request as given) + DIR/NAME.response.json (our answer, no trailing
// newline; empty for no answer). The answer is pretty-printed, so that a golden's diff in review
// shows the field that changed; `--compact` writes it on one line, as it went over the wire. It never
// overwrites a file: goldens are written once, on purpose (`check --update` rewrites them).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { GoldenError } from '../errors/goldenError.ts';
import { prettyJson } from '../golden/pretty.ts';
import { fileStems, readRequests, type NamedRequest } from '../golden/requests.ts';
import { requestMethods, selected } from '../golden/run.ts';
import { dispatch } from '../rpc/dispatch.ts';
import { goldenContext, write, type GoldenIo } from './check.ts';
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

function save(file: string, text: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text, { flag: 'wx' });
  } catch (err) {
    throw new GoldenError(`cannot write ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}

export async function record(options: RecordCommand, io: GoldenIo): Promise<number> {
  try {
    const planned = plan(options);
    const chain = await io.load(options.fixture, options.cache);
    if (chain === undefined) return 2;
    const ctx = goldenContext(chain, io.log, options.allTracers);
    for (const { request, requestFile, responseFile } of planned) {
      const answer = await dispatch(request.request, ctx);
      save(requestFile, request.request);
      // prettyJson keeps an answer that is not JSON as it is
      save(responseFile, answer === undefined ? '' : options.compact ? answer : prettyJson(answer));
    }
    await write(io.stdout, `${planned.length} recorded in ${options.out}\n`);
    return 0;
  } catch (err) {
    if (!(err instanceof GoldenError)) throw err;
    io.log(`blocktrace: ${err.message}`);
    return 2;
  }
}
