import type { LineAt, Tab } from './tabs';
import { ArtifactsTab } from './ArtifactsTab';
import { ChangesTab } from './ChangesTab';
import { CommandsTab } from './CommandsTab';
import { FindingsTab } from './FindingsTab';

/** The session's tabs other than the timeline (loaded with the first one opened). */
export default function Lists({
  id,
  routeId,
  tab,
  at,
}: {
  id: string;
  routeId: string;
  tab: Exclude<Tab, 'timeline'>;
  at?: LineAt;
}) {
  switch (tab) {
    case 'commands':
      return <CommandsTab id={id} routeId={routeId} />;
    case 'changes':
      return <ChangesTab id={id} routeId={routeId} />;
    case 'artifacts':
      return <ArtifactsTab id={id} />;
    case 'secrets':
    case 'problems':
      return <FindingsTab id={id} routeId={routeId} tab={tab} at={at} />;
  }
}
