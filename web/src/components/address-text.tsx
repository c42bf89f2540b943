// An email address (or "Name <address>") in a table cell: its internationalised domain in Unicode
// (unicode-address.ts), and it may break after the "@" and before each ".", where a reader expects it
// to, rather than nowhere (an address kept whole once squeezed the log's Subject column to a word a
// line) or anywhere (mid-name).
import { Fragment } from 'react';
import { unicodeText } from './unicode-address.js';
import { visibleControls } from './visible-controls.js';

export function AddressText({ text }: { text: string }) {
  // An internationalised domain in Unicode, as people write it; its stored ASCII form as the title.
  // A display name's direction controls shown as code points ("Support \u202Egro.lapyap@" reads as a
  // paypal.org address otherwise: visible-controls.ts).
  const shown = visibleControls(unicodeText(text));
  const parts = shown.split(/(?<=@)|(?=\.)/);
  return (
    <span className="free-text" title={shown === text ? undefined : text}>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
