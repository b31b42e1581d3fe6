// Asked before a deploy that leaves the running version's state behind (model/state-breaks.ts):
// which stores start empty, which changelogs and repartition topics are no longer read, and why
// (Kafka Streams keys state by store and topic names). Deploy anyway, or go back and name the
// nodes (their Kafka Streams name) so the generated names stay.
import { useMemo } from 'react';
import { Dialog } from './Dialog.js';
import { useApi } from '../api/context.js';
import { useActions, useDesigner, useDesignerStore } from '../store/context.js';
import { stateBreaks } from '../model/state-breaks.js';
import { deploy } from '../runtime/runtime-actions.js';

export function DeployBreaksDialog() {
  const api = useApi();
  const store = useDesignerStore();
  const actions = useActions();
  const running = useDesigner((s) => s.live.deployedDoc);
  const doc = useDesigner((s) => s.doc);
  const breaks = useMemo(() => (running ? stateBreaks(running, doc) : null), [running, doc]);
  if (!breaks) return null;
  return (
    <Dialog
      title="This deploy leaves state behind"
      testId="deploy-breaks-dialog"
      actions={
        <button
          type="button"
          className="sw-button sw-button--danger"
          data-testid="deploy-breaks-confirm"
          onClick={() => {
            actions.openDialog(null);
            void deploy(api, store);
          }}
        >
          Deploy anyway
        </button>
      }
    >
      <>
        <p>
          Kafka Streams finds a store&apos;s state by its name (its changelog topic is{' '}
          <code>&lt;application.id&gt;-&lt;store&gt;-changelog</code>) and reads repartition topics
          by theirs. The change renames or renumbers some of them:
        </p>
        <ul data-testid="deploy-breaks">
          {breaks.droppedStores.map((s) => (
            <li key={`d-${s.name}`} data-testid="deploy-break-store">
              store <code>{s.name}</code> is no longer used: its state
              {s.changelogTopic ? (
                <>
                  {' '}
                  (and <code>{s.changelogTopic}</code>)
                </>
              ) : null}{' '}
              is left behind
            </li>
          ))}
          {breaks.newStores.map((s) => (
            <li key={`n-${s.name}`} data-testid="deploy-break-new-store">
              store <code>{s.name}</code> starts empty: counts and aggregates begin again from zero
            </li>
          ))}
          {breaks.droppedRepartitions.map((t) => (
            <li key={`r-${t}`} data-testid="deploy-break-repartition">
              repartition topic <code>{t}</code> is no longer read: records waiting in it are not
              processed
            </li>
          ))}
        </ul>
        <p className="sw-muted">
          To keep the state, give the stateful nodes explicit store names, or a Kafka Streams name
          so generated names do not shift when nodes are added.
        </p>
      </>
    </Dialog>
  );
}
