// The full-screen terminal UI of `blocktrace debug`: the alternate screen, keys read raw, the screen
// drawn anew after each key (screen.ts). Keys as Foundry's debugger has them (j/k step, c/C call,
// g/G first/last, q quits) and those of the viewer (navigate.ts). The stack and memory of a step come
// from a window of steps run again around it (stepDetails.ts), fetched while the screen shows `…`.
import type { ChainView } from '../../replay/chainView.ts';
import type { DebugTrace } from '../debugTrace.ts';
import { type Move, MOVE_KEYS } from '../keys.ts';
import { move, runToLine } from '../navigate.ts';
import { type DetailWindow, detailWindow } from '../stepDetails.ts';
import { gethOpcodeName } from '../../trace/render/errorStrings.ts';
import { stepView } from '../stepView.ts';
import { slotNamer } from '../storageNames.ts';
import { drawScreen } from './screen.ts';

export interface TerminalIo {
  readonly stdin: NodeJS.ReadStream;
  readonly stdout: NodeJS.WriteStream;
  readonly env: Record<string, string | undefined>;
}

const KEYS: Record<string, Move> = {
  ...Object.fromEntries(Object.entries(MOVE_KEYS).map(([move, key]) => [key, move as Move])),
  '\u001b[B': 'next', '\u001b[A': 'previous',
};
/** Steps run again on each side of the one shown. */
const WINDOW = 128;

export async function runTerminal(trace: DebugTrace, chain: ChainView, io: TerminalIo, start = 0): Promise<number> {
  const { stdin, stdout } = io;
  const colour = (io.env['NO_COLOR'] ?? '') === '' && io.env['TERM'] !== 'dumb';
  let step = Math.min(start, trace.steps.length - 1);
  let prompt = '';
  let message = '';
  let window: DetailWindow | undefined;
  let fetching: Promise<void> | undefined;
  const sources = new Map<string, string | undefined>();
  for (const where of trace.locations) sources.set(where.file.path, where.file.content);

  const draw = (): void => {
    const inWindow = window !== undefined && step >= window.from && step < window.from + window.details.length;
    const names = window === undefined ? undefined : slotNamer(trace, step, window.preimages);
    const view = stepView(trace, step, inWindow ? window!.details[step - window!.from] : undefined, names);
    const nearby: [number, number, string][] = [];
    for (let i = Math.max(0, step - 6); i < Math.min(trace.steps.length, step + 12); i++) nearby.push([i, trace.steps.pc[i]!, gethOpcodeName(trace.steps.op[i]!)]);
    const lines = drawScreen({
      view, sourceText: view.source === undefined ? undefined : sources.get(view.source.file), nearby,
      width: stdout.columns ?? 100, height: stdout.rows ?? 30, status: prompt !== '' ? prompt : message, colour,
    });
    stdout.write(`\u001b[H${lines.join('\n')}`);
    if (!inWindow) fetchAround(step);
  };
  const fetchAround = (at: number): void => {
    if (fetching !== undefined) return;
    fetching = detailWindow(chain, trace, Math.max(0, at - WINDOW), at + WINDOW).then((w) => {
      window = w;
      fetching = undefined;
      draw();
    }, (err: unknown) => {
      fetching = undefined;
      message = `cannot run the steps again: ${(err as Error).message}`;
      draw();
    });
  };

  stdout.write('\u001b[?1049h\u001b[?25l\u001b[2J');
  stdin.setRawMode(true);
  stdin.resume();
  draw();
  const onResize = (): void => {
    stdout.write('\u001b[2J');
    draw();
  };
  stdout.on('resize', onResize);
  await new Promise<void>((done) => {
    // keys typed fast (or pasted) arrive together: one at a time, an arrow's escape sequence as one
    const onKey = (key: string): boolean => {
      message = '';
      if (prompt !== '') {
        if (key === '\r' || key === '\n') {
          const n = Number(prompt.slice(1));
          const here = trace.locations[trace.steps.location[step]!];
          if (prompt.startsWith(':') && Number.isInteger(n)) step = Math.max(0, Math.min(n, trace.steps.length - 1));
          else if (here !== undefined && Number.isInteger(n)) {
            const to = runToLine(trace, step, here.file.path, n);
            if (to === step) message = `line ${n} of ${here.file.path} is not reached after step ${step}`;
            step = to;
          } else message = 'no source file here to run to a line of';
          prompt = '';
        } else if (key === '\u001b' || key === '\u0003') prompt = '';
        else if (key === '\u007f') prompt = prompt.length > 1 ? prompt.slice(0, -1) : '';
        else if (/^\d$/.test(key)) prompt += key;
        return false;
      }
      if (key === 'q' || key === '\u0003') return true;
      if (key === ':' || key === '@') prompt = key;
      else if (KEYS[key] !== undefined) step = move(trace, step, KEYS[key]!);
      return false;
    };
    stdin.on('data', (data: Buffer) => {
      for (const key of data.toString('utf8').match(/\u001b\[[A-D]|[\s\S]/g) ?? []) {
        if (onKey(key)) {
          done();
          return;
        }
      }
      draw();
    });
  });
  stdout.off('resize', onResize);
  stdin.setRawMode(false);
  stdin.pause();
  stdout.write('\u001b[?25h\u001b[?1049l');
  await fetching?.catch(() => {});
  return 0;
}
