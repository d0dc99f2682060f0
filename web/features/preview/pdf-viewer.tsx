import { apiUrl } from '../../api/http';
import type { FileInfo } from '../../api/types';
import { rawInlinePath } from './sources';

/**
 * A PDF in the browser's own viewer, in a frame of the inline raw URL. The server sends that
 * response with `Content-Security-Policy: sandbox` (api.md §14): whatever the file holds runs in
 * an opaque origin, never in the app's. (The page's CSP has object-src 'none', hence no <object>.)
 */
export function PdfViewer({ file }: { file: FileInfo }) {
  return (
    <div className="preview-stage">
      <iframe className="preview-pdf" src={apiUrl(rawInlinePath(file))} title={file.name} />
    </div>
  );
}
