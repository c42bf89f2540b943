// A TLS-RPT report as mail (RFC 8460 §5.3): multipart/report; report-type="tlsrpt", a line of text and
// the gzipped JSON as an application/tlsrpt+gzip attachment, the TLS-Report-Domain and
// TLS-Report-Submitter headers; the reporter signs it with the test domain's key (dkim/sign.ts, which
// signs those two headers too).
import { randomBytes } from 'node:crypto';

export interface ReportMail {
  from: string;
  to: string;
  policyDomain: string;
  submitter: string;
  reportId: string;
  fileName: string;
  gzip: Buffer;
  date: Date;
}

export function composeReportMail(m: ReportMail): Buffer {
  const boundary = `tlsrpt-${randomBytes(12).toString('hex')}`;
  const base64 = (m.gzip.toString('base64').match(/.{1,76}/g) ?? []).join('\r\n');
  const lines = [
    `From: <${m.from}>`,
    `To: <${m.to}>`,
    `Subject: Report Domain: ${m.policyDomain} Submitter: ${m.submitter} Report-ID: <${m.reportId}@${m.submitter}>`,
    `Date: ${m.date.toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: <${m.reportId}.${randomBytes(6).toString('hex')}@${m.submitter}>`,
    `TLS-Report-Domain: ${m.policyDomain}`,
    `TLS-Report-Submitter: ${m.submitter}`,
    'Auto-Submitted: auto-generated',
    'MIME-Version: 1.0',
    `Content-Type: multipart/report; report-type="tlsrpt"; boundary="${boundary}"`,
    '',
    'This is a multipart message in MIME format.',
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset="us-ascii"',
    'Content-Transfer-Encoding: 7bit',
    '',
    `This is an aggregate TLS report from ${m.submitter} for ${m.policyDomain} (RFC 8460).`,
    '',
    `--${boundary}`,
    'Content-Type: application/tlsrpt+gzip',
    'Content-Transfer-Encoding: base64',
    `Content-Disposition: attachment; filename="${m.fileName}"`,
    '',
    base64,
    '',
    `--${boundary}--`,
    '',
  ];
  return Buffer.from(lines.join('\r\n'), 'utf8');
}
