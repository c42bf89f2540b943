// The overview marks "Run the guided test" done by finding the test mail's subject in the log: the
// dashboard's copy of the subject must be the server's.
import { describe, expect, it } from 'vitest';
import { guidedTestMail } from '../../src/accounts/account-mail-content.js';
import { GUIDED_TEST_SUBJECT } from '../../web/src/components/guided-test-subject.js';

describe('the guided test subject', () => {
  it('is the one the server sends', () => {
    expect(guidedTestMail(new Date()).subject).toBe(GUIDED_TEST_SUBJECT);
  });
});
