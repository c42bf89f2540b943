// `txmail config`: the effective configuration, field by field in the table's order, secrets masked.
import type { Config } from '../config.js';
import { SETTINGS } from './table.js';

export function describeConfig(config: Config): Record<string, unknown> {
  return Object.assign({}, ...SETTINGS.map((setting) => setting.show(config))) as Record<string, unknown>;
}
