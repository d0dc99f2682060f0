import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { FileInfo } from '../../api/types';
import { Spinner } from '../../components/spinner';
import { opensRendered } from '../../lib/markdown';
import { ImageViewer } from './image-viewer';
import { MediaViewer } from './media-viewer';
import { isTiffLike } from './neighbours';
import { NoPreview } from './no-preview';

// The heavy viewers are chunks of their own, fetched the first time one is needed.
const PdfViewer = lazy(async () => ({ default: (await import('./pdf-viewer')).PdfViewer }));
const ModelViewer = lazy(async () => ({ default: (await import('./model-viewer')).ModelViewer }));
const MarkdownViewer = lazy(async () => ({ default: (await import('./markdown-viewer')).MarkdownViewer }));

interface ViewerProps {
  file: FileInfo;
  canDownload: boolean;
  onDownload: () => void;
}

function Chosen({ file, canDownload, onDownload }: ViewerProps) {
  // Without the download permission the server sends no content (202), only the message stays.
  if (!canDownload) return <NoPreview file={file} onDownload={onDownload} />;
  // A camera raw without a known image type is still a TIFF inside.
  if (file.type === 'image' || isTiffLike(file.name)) return <ImageViewer file={file} />;
  if (file.type === 'video' || file.type === 'audio') return <MediaViewer file={file} />;
  if (file.type === 'pdf') return <PdfViewer file={file} />;
  if (file.type === 'stl' || file.type === 'obj') return <ModelViewer file={file} />;
  if (opensRendered(file)) return <MarkdownViewer file={file} />;
  return <NoPreview file={file} onDownload={onDownload} />;
}

/** The viewer for the file's type (product.md §2 'Preview page'). */
export function Viewer(props: ViewerProps) {
  const { t } = useTranslation();
  return (
    <Suspense fallback={<Spinner label={t('app.loading')} />}>
      <Chosen {...props} />
    </Suspense>
  );
}
