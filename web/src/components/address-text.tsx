// An email address (or "Name <address>") in a table cell: it may break after the "@" and before each
// ".", where a reader expects it to, rather than nowhere (an address kept whole once squeezed the log's
// Subject column to a word a line) or anywhere (mid-name).
import { Fragment } from 'react';

export function AddressText({ text }: { text: string }) {
  const parts = text.split(/(?<=@)|(?=\.)/);
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}
