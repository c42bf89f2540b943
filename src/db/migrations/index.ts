// Every migration, in order. A migration is never edited once released: add a new one.
import type { Migration } from 'kysely';
import * as m001 from './001-initial.js';
import * as m002 from './002-delivery.js';
import * as m003 from './003-source-ips.js';
import * as m006 from './006-webhooks.js';

export const migrations: Record<string, Migration> = {
  '001-initial': m001,
  '002-delivery': m002,
  '003-source-ips': m003,
  '006-webhooks': m006,
};
