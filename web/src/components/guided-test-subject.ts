// The guided test mail's subject, as the server writes it (src/accounts/account-mail-content.ts,
// guidedTestMail; test/unit/guided-test-subject.test.ts holds the two together): the overview finds a
// delivered guided test in the log by it.
export const GUIDED_TEST_SUBJECT = 'Your first email from txmail';
