/**
 * Starts a download of `url` (same origin; the auth cookie authorises it) without leaving the
 * page: the server answers with Content-Disposition: attachment.
 */
export function startDownload(url: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = '';
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}
