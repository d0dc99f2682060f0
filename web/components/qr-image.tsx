import { useEffect, useState } from 'react';

/** An SVG QR code of `value` as a data URL; qrcode is its own chunk, loaded on first use. */
async function qrDataUrl(value: string, margin: number): Promise<string> {
  // qrcode is CommonJS: its exports are the namespace's `default`.
  const qrcode = (await import('qrcode')).default;
  const svg = await qrcode.toString(value, { type: 'svg', margin, errorCorrectionLevel: 'M', color: { dark: '#000000', light: '#ffffff' } });
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/**
 * A QR code drawn in the browser (the value is sent nowhere): an `img` named by `label`, always
 * black on white so a camera reads it in the dark theme too.
 */
export function QrImage({ value, label, size = 184, margin = 2, className }: { value: string; label: string; size?: number; margin?: number; className?: string }) {
  const [drawn, setDrawn] = useState<{ value: string; src: string } | null>(null);
  useEffect(() => {
    let live = true;
    qrDataUrl(value, margin).then((src) => live && setDrawn({ value, src }), () => undefined);
    return () => {
      live = false;
    };
  }, [value, margin]);
  if (drawn?.value !== value) return <span className={className} style={{ inlineSize: size, blockSize: size }} aria-hidden="true" />;
  return <img className={className} src={drawn.src} alt={label} width={size} height={size} />;
}
