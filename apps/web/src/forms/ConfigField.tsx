// A config field's editor: structured fields (lists, objects, records) get their row editors,
// everything else one FieldControl.
import { FieldControl, type FieldControlProps } from './FieldControl.js';
import { EntriesControl, ListControl, ObjectControl } from './StructuredControls.js';

export function ConfigField(props: FieldControlProps) {
  switch (props.field.control.type) {
    case 'list':
      return <ListControl {...props} />;
    case 'object':
      return <ObjectControl {...props} />;
    case 'entries':
      return <EntriesControl {...props} />;
    default:
      return <FieldControl {...props} />;
  }
}
