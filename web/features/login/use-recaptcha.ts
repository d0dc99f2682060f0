import { useEffect, useRef, type RefObject } from 'react';

// The reCAPTCHA script (loaded by index.html with render=explicit when configured) defines this.
interface ReCaptchaApi {
  render: (element: HTMLElement, options: { sitekey: string; theme?: string }) => number;
  getResponse: (widget?: number) => string;
  reset: (widget?: number) => void;
}

declare global {
  interface Window {
    grecaptcha?: Partial<ReCaptchaApi>;
  }
}

const POLL_MS = 200;

/** Renders the widget into `ref` once the script is ready; returns a reader of its response. */
export function useRecaptcha(ref: RefObject<HTMLDivElement | null>, siteKey: string | null, theme: string) {
  const widget = useRef<number | null>(null);
  useEffect(() => {
    if (!siteKey) return;
    const timer = setInterval(() => {
      const api = window.grecaptcha;
      if (!ref.current || typeof api?.render !== 'function' || widget.current !== null) return;
      widget.current = api.render(ref.current, { sitekey: siteKey, theme });
      clearInterval(timer);
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [ref, siteKey, theme]);

  return {
    response: (): string => (widget.current === null ? '' : (window.grecaptcha?.getResponse?.(widget.current) ?? '')),
    reset: (): void => {
      if (widget.current !== null) window.grecaptcha?.reset?.(widget.current);
    },
  };
}
