import { QrImage } from '../../components/qr-image';

/** The QR code of a link, drawn in the browser (nothing is sent anywhere): an `img` named by `label`. */
export function QrCode({ value, label }: { value: string; label: string }) {
  return <QrImage value={value} label={label} size={168} margin={1} className="share-qr" />;
}
