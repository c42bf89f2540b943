// Entry point of the report-parsing thread (see report-parser.ts).
import { parseReport, type InboundReport } from '../bounce/parse-report.js';

export interface ParseTask {
  /** The message as stored (inbound_raw.raw, base64): decoded on the thread, not the event loop. */
  raw: string;
  /** MAIL FROM, '' for the null sender. */
  mailFrom: string;
}

/**
 * Asks only that the thread be ready: answering it means this module and the parsers are loaded
 * (report-parser.ts starts a parse's budget after that).
 */
export interface WarmUp {
  warmUp: true;
}

export default async function parse(task: ParseTask | WarmUp): Promise<InboundReport | null> {
  if ('warmUp' in task) return null;
  return parseReport(Buffer.from(task.raw, 'base64'), { mailFrom: task.mailFrom });
}
