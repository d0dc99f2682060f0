import { useAtomValue, useSetAtom } from 'jotai';
import { closePromptAtom, promptAtom, type Prompt } from '../../state/prompts';
import { DeletePrompt } from './delete-prompt';
import { DownloadPrompt } from './download-prompt';
import { ExtractPrompt } from './extract-prompt';
import { HelpPrompt } from './help-prompt';
import { InfoPrompt } from './info-prompt';
import { NewItemPrompt } from './new-item-prompt';
import { RenamePrompt } from './rename-prompt';
import { ReplacePrompt } from './replace-prompt';
import { ShareDeletePrompt } from './share-delete-prompt';
import { SharePrompt } from './share-prompt';
import { TransferPrompt } from './transfer-prompt';

function render(prompt: Prompt, close: () => void) {
  switch (prompt.kind) {
    case 'help': return <HelpPrompt onClose={close} />;
    case 'newDir':
    case 'newFile': return <NewItemPrompt key={prompt.kind} isDir={prompt.kind === 'newDir'} onClose={close} />;
    case 'delete': return <DeletePrompt items={prompt.items} onClose={close} onDone={prompt.onDone} />;
    case 'rename': return <RenamePrompt item={prompt.item} onClose={close} onDone={prompt.onDone} />;
    case 'move':
    case 'copy': return <TransferPrompt key={prompt.kind} kind={prompt.kind} items={prompt.items} onClose={close} />;
    case 'download': return <DownloadPrompt items={prompt.items} onClose={close} />;
    case 'info': return <InfoPrompt items={prompt.items} onClose={close} />;
    case 'share': return <SharePrompt item={prompt.item} onClose={close} />;
    case 'shareDelete': return <ShareDeletePrompt item={prompt.item} hash={prompt.hash} />;
    case 'replaceRename': return <ReplacePrompt transfer={prompt.transfer} onClose={close} />;
    case 'extract': return <ExtractPrompt item={prompt.item} onClose={close} />;
  }
}

/** Renders the prompt of promptAtom, if any (product.md §2 'Prompts'). */
export function PromptHost() {
  const prompt = useAtomValue(promptAtom);
  const close = useSetAtom(closePromptAtom);
  return prompt ? render(prompt, close) : null;
}
