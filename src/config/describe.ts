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
 * value as set or defaulted in the variable's own syntax (`TXMAIL_HTTP_REQUEST_TIMEOUT=1m`), so that the
 * lines set again give the same configuration; `(unset)` for nothing, secrets masked.
 */
export function configLines(config: Config): string {
  return SETTINGS.map((setting) => {
    const text = setting.text(config);
    return `${setting.env}=${text === undefined || text === '' ? '(unset)' : text}`;
  }).join('\n');
}
