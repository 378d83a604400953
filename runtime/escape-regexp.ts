/** Text as a regular expression that matches it literally: one home for the runtime and the adapter (blackbox patterns). A leaf. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
