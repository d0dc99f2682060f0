import { useAtomValue, useSetAtom } from 'jotai';
import { closePromptAtom, promptAtom } from '../../state/prompts';
import { HelpPrompt } from './help-prompt';
import { NewItemPrompt } from './new-item-prompt';

/** Renders the prompt of promptAtom, if any. */
export function PromptHost() {
  const prompt = useAtomValue(promptAtom);
  const close = useSetAtom(closePromptAtom);
  if (!prompt) return null;
  if (prompt.kind === 'help') return <HelpPrompt onClose={close} />;
  return <NewItemPrompt key={prompt.kind} isDir={prompt.kind === 'newDir'} onClose={close} />;
}
