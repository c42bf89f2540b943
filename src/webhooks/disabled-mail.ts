// The email an account receives when txmail disables one of its webhook endpoints.

export function webhookDisabledMail(
  url: string,
  why: string,
  publicUrl: string,
): { subject: string; html: string } {
  const esc = (s: string) =>
    s.replace(
      /[&<>"']/g,
      (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
    );
  return {
    subject: 'Your txmail webhook endpoint was disabled',
    html: [
      '<p>Hello,</p>',
      `<p>${esc(why)}.</p>`,
      `<p>Endpoint: <code>${esc(url)}</code></p>`,
      '<p>No more events are sent to it. Once it works again, enable it (<code>PATCH /api/webhooks/:id</code> ',
      'with <code>{"enabled": true}</code>) and replay the events it missed ',
      '(<code>POST /api/webhooks/:id/replay</code>); every attempt is listed under ',
      `<code>GET /api/webhooks/:id/deliveries</code> at ${esc(publicUrl)}.</p>`,
      '<p>— txmail</p>',
    ].join('\n'),
  };
}
