// Accepting on PostgreSQL: group commit in front of the batch transaction (db/postgres/accept.ts).
import type { Kysely } from 'kysely';
import { quotaNoticeAt } from '../accounts/quota-warning.js';
import type { AcceptItem, AcceptOutcome } from '../db/accept-item.js';
import { postgresAcceptTransaction } from '../db/postgres/accept.js';
import type { Database } from '../db/schema.js';
import { GroupCommit } from '../group-commit.js';
import type { AcceptWriter, AcceptWriterOptions } from './writer.js';

export class PostgresAcceptWriter implements AcceptWriter {
  private readonly batcher: GroupCommit<AcceptItem, AcceptOutcome>;

  constructor(db: Kysely<Database>, { onCommitted }: Pick<AcceptWriterOptions, 'onCommitted'>) {
    // Two transactions at once: the second does its work while the first commits. More only makes
    // smaller batches, which queue on the account's usage row lock (bench/accept: 2 did as well as or
    // better than 1, 3 and 4, and clearly better than 8).
    this.batcher = new GroupCommit(postgresAcceptTransaction(db, quotaNoticeAt), {
      maxInFlight: 2,
      ...(onCommitted && { onCommitted }),
    });
  }

  submit(item: AcceptItem): Promise<AcceptOutcome> {
    return this.batcher.submit(item);
  }

  close(): Promise<void> {
    return this.batcher.drain();
  }
}
