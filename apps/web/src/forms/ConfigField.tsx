// A config field's editor: structured fields (lists, objects, records, unions with object
// alternatives) get their own editors, everything else one FieldControl.
import { ChoiceControl } from './ChoiceControl.js';
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
    case 'select':
      return props.field.control.shapes ? (
        <ChoiceControl {...props} renderField={ConfigField} />
      ) : (
        <FieldControl {...props} />
      );
    default:
      return <FieldControl {...props} />;
  }
}
