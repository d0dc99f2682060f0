import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { lazyComponent } from './lazy-component';

function Greeting({ name }: { name: string }) {
  return <p>hello {name}</p>;
}

function Waiting() {
  return <p>waiting</p>;
}

describe('lazyComponent', () => {
  it('renders the fallback until the chunk is there, then the component itself', async () => {
    let loads = 0;
    const Lazy = lazyComponent(() => {
      loads += 1;
      return Promise.resolve({ Greeting });
    }, 'Greeting', Waiting);
    expect(renderToString(<Lazy name="ann" />)).toBe('<p>waiting</p>');
    await Lazy.preload();
    expect(renderToString(<Lazy name="ann" />)).toBe('<p>hello <!-- -->ann</p>');
    await Lazy.preload();
    expect(loads).toBe(1);
  });

  it('renders the component at once when it was preloaded before its first render', async () => {
    const Lazy = lazyComponent(() => Promise.resolve({ Greeting }), 'Greeting');
    await Lazy.preload();
    expect(renderToString(<Lazy name="bo" />)).toBe('<p>hello <!-- -->bo</p>');
  });

  it('renders nothing without a fallback while loading', () => {
    const Lazy = lazyComponent(() => new Promise<{ Greeting: typeof Greeting }>(() => undefined), 'Greeting');
    expect(renderToString(<Lazy name="cy" />)).toBe('');
  });

  it('throws the load failure on render, for the error boundary', async () => {
    const Lazy = lazyComponent<{ name: string }, 'Greeting'>(() => Promise.reject(new Error('chunk missing')), 'Greeting');
    await Lazy.preload();
    expect(() => renderToString(<Lazy name="di" />)).toThrow('chunk missing');
  });
});
