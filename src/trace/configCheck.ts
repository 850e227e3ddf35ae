// A tracer's `tracerConfig` checked against its schema before anything executes (trace/registry.ts),
// here below the registry so a composing tracer (muxTracer) checks its parts the same way.
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/**
 * Validates `config` against a tracer's schema; returns an error message or undefined. An unknown
 * key is refused unless the schema says `additionalProperties: true` (a tracer whose go-ethereum
 * original ignores them, as json.Unmarshal does).
 */
export function checkTracerConfig(tracer: string, schema: TSchema, config: unknown): string | undefined {
  const prefix = `invalid tracerConfig for ${tracer}`;
  if (typeof config !== 'object' || config === null || Array.isArray(config)) return `${prefix}: expected a JSON object`;
  const properties = (schema as { properties?: Record<string, unknown> }).properties;
  if (properties !== undefined && (schema as { additionalProperties?: unknown }).additionalProperties !== true) {
    const allowed = Object.keys(properties);
    for (const key of Object.keys(config)) {
      if (!allowed.includes(key)) {
        const list = allowed.length > 0 ? allowed.join(', ') : 'none';
        return `${prefix}: unknown field ${JSON.stringify(key)} (allowed: ${list})`;
      }
    }
  }
  const first = Value.Errors(schema, config).First();
  if (first === undefined) return undefined;
  const path = first.path.replace(/^\//, '').replace(/\//g, '.');
  return path === '' ? `${prefix}: ${first.message}` : `${prefix}: ${path}: ${first.message}`;
}
