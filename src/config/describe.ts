// `txmail config`: the effective configuration, field by field in the table's order, secrets masked;
// a field with no value is null (JSON would drop it), so every variable shows.
import type { Config } from '../config.js';
import { SETTINGS } from './table.js';

export function describeConfig(config: Config): Record<string, unknown> {
  return Object.assign(
    {},
    ...SETTINGS.map((setting) =>
      Object.fromEntries(
        Object.entries(setting.show(config)).map(([k, v]) => [k, v === undefined ? null : v]),
      ),
    ),
  ) as Record<string, unknown>;
}

/**
 * The text form: one line per variable as the README's table names it, `TXMAIL_HTTP_PORT=8080`, its
 * value as set or defaulted (JSON for what is not a string; `(unset)` for nothing), secrets masked.
 */
export function configLines(config: Config): string {
  return SETTINGS.map((setting) => {
    const values = Object.values(setting.show(config));
    const shown = values.length === 1 ? values[0] : values;
    const text =
      shown === undefined || shown === null
        ? '(unset)'
        : typeof shown === 'string'
          ? shown
          : JSON.stringify(shown, (_k, v: unknown) => (v instanceof Map ? Object.fromEntries(v) : v));
    return `${setting.env}=${text}`;
  }).join('\n');
}
