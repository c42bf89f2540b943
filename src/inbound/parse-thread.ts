// Entry point of the report-parsing thread (see report-parser.ts).
import { parseReport, type InboundReport } from '../bounce/parse-report.js';
import type { InboundRaw } from '../db/schema.js';

/**
 * The message as stored whole (base64: decoded on the thread, not the event loop) or in pieces (moved
 * to the thread, not copied), and its MAIL FROM ('' for the null sender).
 */
export type ParseTask = InboundRaw & { mailFrom: string };

/**
 * Asks only that the thread be ready: answering it means this module and the parsers are loaded
 * (report-parser.ts starts a parse's budget after that).
 */
export interface WarmUp {
  warmUp: true;
}

export default async function parse(task: ParseTask | WarmUp): Promise<InboundReport | null> {
  if ('warmUp' in task) return null;
  const bytes = 'raw' in task ? Buffer.from(task.raw, 'base64') : Buffer.concat(task.pieces);
  return parseReport(bytes, { mailFrom: task.mailFrom });
}
