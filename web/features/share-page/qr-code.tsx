import { useEffect, useState } from 'react';

/** An SVG QR code of `value` as a data URL; qrcode is its own chunk, loaded on first use. */
async function qrDataUrl(value: string): Promise<string> {
  // qrcode is CommonJS: its exports are the namespace's `default` (a named toString would be Object's).
  const qrcode = (await import('qrcode')).default;
  const svg = await qrcode.toString(value, { type: 'svg', margin: 1, errorCorrectionLevel: 'M', color: { dark: '#000000', light: '#ffffff' } });
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/** The QR code of a link, drawn in the browser (nothing is sent anywhere): an `img` named by `label`. */
export function QrCode({ value, label }: { value: string; label: string }) {
  const [drawn, setDrawn] = useState<{ value: string; src: string } | null>(null);
  useEffect(() => {
    let live = true;
    qrDataUrl(value).then((src) => live && setDrawn({ value, src }), () => undefined);
    return () => {
      live = false;
    };
  }, [value]);
  if (drawn?.value !== value) return <span className="share-qr" aria-hidden="true" />;
  return <img className="share-qr" src={drawn.src} alt={label} width={168} height={168} />;
}
