/**
 * The address, trimmed, when it is empty or an absolute `http://` or `https://` URL with a host;
 * undefined for anything else (`javascript:`, `mailto:`, a relative path, a bare host name).
 * Used for addresses the UI opens as links, such as branding's issue tracker.
 */
export function httpUrlOrEmpty(value: string): string | undefined {
  const address = value.trim();
  if (address === '') return '';
  if (!/^https?:\/\//i.test(address)) return undefined;
  try {
    return new URL(address).hostname === '' ? undefined : address;
  } catch {
    return undefined;
  }
}
