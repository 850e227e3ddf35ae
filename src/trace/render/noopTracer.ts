// go-ethereum's noopTracer (eth/tracers/native/noop.go), behind --all-tracers: it records nothing
// and its result is `{}`.
import { Type } from '@sinclair/typebox';
import { ARENA_ONLY, type RecordedTracer } from '../tracerEntry.ts';

export const noopTracer: RecordedTracer<unknown> = {
  name: 'noopTracer',
  needs: () => ARENA_ONLY,
  configSchema: Type.Unknown(),
  optIn: true,
  render: () => ({}),
};
