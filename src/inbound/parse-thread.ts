// Entry point of the report-parsing thread (see report-parser.ts).
import { parseReport, type InboundReport } from '../bounce/parse-report.js';

export interface ParseTask {
  /** The message as stored (inbound_messages.raw, base64): decoded on the thread, not the event loop. */
  raw: string;
  /** MAIL FROM, '' for the null sender. */
  mailFrom: string;
}

export default function parse(task: ParseTask): Promise<InboundReport> {
  return parseReport(Buffer.from(task.raw, 'base64'), { mailFrom: task.mailFrom });
}
