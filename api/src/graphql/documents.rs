//! Parsed GraphQL documents, remembered by their text. A client sends the same few documents
//! over and over (the site's `me`, the REST adapter's fixed operations), and parsing one costs
//! more than running it; the limits that can be judged from the text alone (aliases) are
//! checked once, when a document is first parsed (so no document past them is kept).

use std::sync::{LazyLock, Mutex, PoisonError};

use async_graphql::{
    Name, Positioned, Request, Response, ServerError,
    parser::types::{
        Directive, DocumentOperations, ExecutableDocument, FragmentDefinition, Selection, SelectionSet,
        VariableDefinition,
    },
};
use async_graphql_value::Value;
use hashlink::LruCache;

use super::{AppSchema, limits};

/// Distinct documents kept; the least recently used goes first.
const CAPACITY: usize = 512;
/// Longer documents are parsed every time rather than kept.
const MAX_KEPT_LEN: usize = 8 * 1024;

static PARSED: LazyLock<Mutex<LruCache<Box<str>, ExecutableDocument>>> =
    LazyLock::new(|| Mutex::new(LruCache::new(CAPACITY)));

/// `query`, parsed and within the limits of [`limits`] that depend on the text alone.
///
/// # Errors
/// The parser's error, or too many aliases, as GraphQL errors.
pub fn parse(query: &str) -> Result<ExecutableDocument, ServerError> {
    let kept = query.len() <= MAX_KEPT_LEN;
    if kept && let Some(document) = PARSED.lock().unwrap_or_else(PoisonError::into_inner).get(query) {
        return Ok(document.clone());
    }
    if query.trim().is_empty() {
        return Err(limits::coded(ServerError::new(NO_QUERY, None)));
    }
    let document =
        async_graphql::parser::parse_query(query).map_err(|error| limits::coded(readable(error)))?;
    limits::check_size(&document)?;
    if kept {
        PARSED
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(query.into(), document.clone());
    }
    Ok(document)
}

/// What a request without a document hears (an empty `query`, or a persisted query's hash
/// alone: this server keeps no documents by hash).
pub const NO_QUERY: &str = "A GraphQL request needs its query: the document's text in `query`";

/// The parser's error in a sentence: its syntax errors come drawn for a terminal (an arrow
/// under the line), which a client shows as a jumble of pipes.
fn readable(error: async_graphql::parser::Error) -> ServerError {
    match error {
        async_graphql::parser::Error::Syntax { message, start, .. } => {
            let expected = message
                .lines()
                .rev()
                .find_map(|line| line.trim().strip_prefix("= "))
                .unwrap_or("unexpected input");
            ServerError::new(
                format!(
                    "The query is not valid GraphQL at line {}, column {}: {expected}",
                    start.line, start.column
                ),
                Some(start),
            )
        }
        other => other.into(),
    }
}

/// `request` with its document parsed, ready to run; or the response refusing it.
///
/// # Errors
/// A response with the parser's or the limit's error, as the schema would have answered.
pub fn prepare(mut request: Request) -> Result<Request, Box<Response>> {
    match parse(&request.query) {
        Ok(mut document) => match leave_out_missing_variables(&mut document, &request) {
            Ok(()) => {
                request.set_parsed_query(document);
                Ok(request)
            }
            Err(error) => Err(Box::new(Response::from_errors(vec![limits::coded(error)]))),
        },
        Err(error) => Err(Box::new(Response::from_errors(vec![error]))),
    }
}

/// Leaves out every argument and input field whose value is a nullable variable the request
/// did not give (and that has no default), as the GraphQL specification says ("Coercing
/// Variable Values", "Coercing Field Arguments"): async-graphql gives such a variable null,
/// so a client that left `$bio` out of its variables cleared the bio, and one that left out
/// `$seats` lifted the seat limit. A partial update is then what its documentation says: a
/// field left out stays as it is. Where leaving out is not a thing (a list's item, a
/// directive's argument) the variable is null, as before; the definitions, used no more,
/// go, so validation does not call them unused. Only the operation that runs changes (a
/// fragment other operations spread too is changed in a copy of its own), and a document
/// validation would refuse for its variables is left whole, for validation to refuse.
///
/// A variable of a non-null type with no default that the request does not give is refused
/// here, by name: async-graphql called it "not defined", or took it for false in `@include`.
///
/// # Errors
/// That refusal.
fn leave_out_missing_variables(
    document: &mut ExecutableDocument,
    request: &Request,
) -> Result<(), ServerError> {
    // The operation that runs: the one named, or the document's only one, named or not.
    let chosen = match (&document.operations, request.operation_name.as_deref()) {
        (DocumentOperations::Single(_), _) => None,
        (DocumentOperations::Multiple(operations), Some(name)) if operations.contains_key(name) => {
            Some(Name::new(name))
        }
        (DocumentOperations::Multiple(operations), None) if operations.len() == 1 => {
            operations.keys().next().cloned()
        }
        // No such operation, or none named among several: execution refuses the request.
        (DocumentOperations::Multiple(_), _) => return Ok(()),
    };
    let operation = match (&document.operations, &chosen) {
        (DocumentOperations::Single(operation), _) => operation,
        (DocumentOperations::Multiple(operations), Some(name)) => match operations.get(name) {
            Some(operation) => operation,
            None => return Ok(()),
        },
        (DocumentOperations::Multiple(_), None) => return Ok(()),
    };
    let given = |definition: &VariableDefinition| {
        definition.default_value.is_some() || request.variables.contains_key(&definition.name.node)
    };
    if let Some(definition) = operation
        .node
        .variable_definitions
        .iter()
        .find(|definition| !definition.node.var_type.node.nullable && !given(&definition.node))
    {
        let definition = &definition.node;
        return Err(ServerError::new(
            format!(
                "Variable ${} ({}) needs a value, and the request's variables give it none",
                definition.name.node, definition.var_type.node
            ),
            Some(definition.name.pos),
        ));
    }
    // The rewrite leaves validation as it was: a document it would refuse for its variables
    // (two of one name, a type that is no input type, one never used) is left to it whole.
    let definitions = &operation.node.variable_definitions;
    let mut seen = std::collections::HashSet::new();
    if !definitions
        .iter()
        .all(|definition| seen.insert(&definition.node.name.node))
    {
        return Ok(());
    }
    let mine = spread_fragments(&operation.node.selection_set.node, &document.fragments);
    let mut used = Vec::new();
    variables_in_selections(&operation.node.selection_set.node, &mut used);
    variables_in_directives(&operation.node.directives, &mut used);
    for name in &mine {
        if let Some(fragment) = document.fragments.get(name) {
            variables_in_selections(&fragment.node.selection_set.node, &mut used);
            variables_in_directives(&fragment.node.directives, &mut used);
        }
    }
    let left_out: Vec<&VariableDefinition> = definitions
        .iter()
        .map(|definition| &definition.node)
        .filter(|definition| {
            definition.default_value.is_none()
                && definition.var_type.node.nullable
                && !request.variables.contains_key(&definition.name.node)
        })
        .collect();
    if left_out
        .iter()
        .any(|definition| !used.contains(&definition.name.node) || !is_input_type(&definition.var_type.node))
    {
        return Ok(());
    }
    let missing: Vec<Name> = left_out
        .iter()
        .map(|definition| definition.name.node.clone())
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    // The fragments the other operations spread too are changed in copies of this one's own,
    // so the others stay as they were written.
    let mut theirs = Vec::new();
    if let DocumentOperations::Multiple(operations) = &document.operations {
        for (name, other) in operations {
            if Some(name) != chosen.as_ref() {
                theirs.extend(spread_fragments(
                    &other.node.selection_set.node,
                    &document.fragments,
                ));
            }
        }
    }
    let mut copies = std::collections::HashMap::new();
    for name in mine.iter().filter(|name| theirs.contains(name)) {
        let mut copy = Name::new(format!("{name}_"));
        while document.fragments.contains_key(&copy) || copies.values().any(|taken| taken == &copy) {
            copy = Name::new(format!("{copy}_"));
        }
        copies.insert(name.clone(), copy);
    }
    for (name, copy) in &copies {
        if let Some(fragment) = document.fragments.get(name).cloned() {
            document.fragments.insert(copy.clone(), fragment);
        }
    }
    let changed: Vec<Name> = mine
        .iter()
        .map(|name| copies.get(name).unwrap_or(name).clone())
        .collect();
    let operation = match (&mut document.operations, &chosen) {
        (DocumentOperations::Single(operation), _) => operation,
        (DocumentOperations::Multiple(operations), Some(name)) => match operations.get_mut(name) {
            Some(operation) => operation,
            None => return Ok(()),
        },
        (DocumentOperations::Multiple(_), None) => return Ok(()),
    };
    let operation = &mut operation.node;
    operation
        .variable_definitions
        .retain(|definition| !missing.contains(&definition.node.name.node));
    nulls_in_directives(&mut operation.directives, &missing);
    rename_spreads(&mut operation.selection_set.node, &copies);
    leave_out_of_selections(&mut operation.selection_set.node, &missing);
    for name in &changed {
        if let Some(fragment) = document.fragments.get_mut(name) {
            nulls_in_directives(&mut fragment.node.directives, &missing);
            rename_spreads(&mut fragment.node.selection_set.node, &copies);
            leave_out_of_selections(&mut fragment.node.selection_set.node, &missing);
        }
    }
    Ok(())
}

/// Whether a variable of type `ty` is one validation accepts: its named type is an input
/// type of the schema (a scalar, an enum or an input object).
fn is_input_type(ty: &async_graphql::parser::types::Type) -> bool {
    use async_graphql::parser::types::{BaseType, TypeKind, TypeSystemDefinition};
    static INPUT_TYPES: LazyLock<std::collections::HashSet<String>> = LazyLock::new(|| {
        let mut names: std::collections::HashSet<String> = ["String", "Int", "Float", "Boolean", "ID"]
            .into_iter()
            .map(str::to_owned)
            .collect();
        if let Ok(schema) = async_graphql::parser::parse_schema(super::sdl()) {
            for definition in schema.definitions {
                if let TypeSystemDefinition::Type(definition) = definition
                    && matches!(
                        definition.node.kind,
                        TypeKind::Scalar | TypeKind::Enum(_) | TypeKind::InputObject(_)
                    )
                {
                    names.insert(definition.node.name.node.to_string());
                }
            }
        }
        names
    });
    match &ty.base {
        BaseType::Named(name) => INPUT_TYPES.contains(name.as_str()),
        BaseType::List(item) => is_input_type(item),
    }
}

/// The variables `set` names anywhere: arguments, input values, directives.
fn variables_in_selections(set: &SelectionSet, used: &mut Vec<Name>) {
    for item in &set.items {
        match &item.node {
            Selection::Field(field) => {
                for (_, value) in &field.node.arguments {
                    variables_in_value(&value.node, used);
                }
                variables_in_directives(&field.node.directives, used);
                variables_in_selections(&field.node.selection_set.node, used);
            }
            Selection::InlineFragment(fragment) => {
                variables_in_directives(&fragment.node.directives, used);
                variables_in_selections(&fragment.node.selection_set.node, used);
            }
            Selection::FragmentSpread(spread) => variables_in_directives(&spread.node.directives, used),
        }
    }
}

fn variables_in_directives(directives: &[Positioned<Directive>], used: &mut Vec<Name>) {
    for directive in directives {
        for (_, value) in &directive.node.arguments {
            variables_in_value(&value.node, used);
        }
    }
}

fn variables_in_value(value: &Value, used: &mut Vec<Name>) {
    match value {
        Value::Variable(name) => used.push(name.clone()),
        Value::List(items) => items.iter().for_each(|item| variables_in_value(item, used)),
        Value::Object(fields) => fields.values().for_each(|field| variables_in_value(field, used)),
        _ => {}
    }
}

/// Spreads of the fragments in `copies` spread their copies instead.
fn rename_spreads(set: &mut SelectionSet, copies: &std::collections::HashMap<Name, Name>) {
    if copies.is_empty() {
        return;
    }
    for item in &mut set.items {
        match &mut item.node {
            Selection::Field(field) => rename_spreads(&mut field.node.selection_set.node, copies),
            Selection::InlineFragment(fragment) => {
                rename_spreads(&mut fragment.node.selection_set.node, copies)
            }
            Selection::FragmentSpread(spread) => {
                if let Some(copy) = copies.get(&spread.node.fragment_name.node) {
                    spread.node.fragment_name.node = copy.clone();
                }
            }
        }
    }
}

/// The fragments `set` spreads, and those they spread in turn.
fn spread_fragments(
    set: &SelectionSet,
    fragments: &std::collections::HashMap<Name, Positioned<FragmentDefinition>>,
) -> Vec<Name> {
    let mut found: Vec<Name> = Vec::new();
    let mut sets = vec![set];
    while let Some(set) = sets.pop() {
        for item in &set.items {
            match &item.node {
                Selection::Field(field) => sets.push(&field.node.selection_set.node),
                Selection::InlineFragment(fragment) => sets.push(&fragment.node.selection_set.node),
                Selection::FragmentSpread(spread) => {
                    let name = &spread.node.fragment_name.node;
                    if !found.contains(name) {
                        found.push(name.clone());
                        if let Some(fragment) = fragments.get(name) {
                            sets.push(&fragment.node.selection_set.node);
                        }
                    }
                }
            }
        }
    }
    found
}

fn leave_out_of_selections(set: &mut SelectionSet, missing: &[Name]) {
    for item in &mut set.items {
        match &mut item.node {
            Selection::Field(field) => {
                let field = &mut field.node;
                field
                    .arguments
                    .retain(|(_, value)| !is_missing(&value.node, missing));
                for (_, value) in &mut field.arguments {
                    leave_out_of_value(&mut value.node, missing);
                }
                nulls_in_directives(&mut field.directives, missing);
                leave_out_of_selections(&mut field.selection_set.node, missing);
            }
            Selection::InlineFragment(fragment) => {
                nulls_in_directives(&mut fragment.node.directives, missing);
                leave_out_of_selections(&mut fragment.node.selection_set.node, missing);
            }
            Selection::FragmentSpread(spread) => nulls_in_directives(&mut spread.node.directives, missing),
        }
    }
}

/// An input object's fields left out where their variable is missing; a list's items null.
fn leave_out_of_value(value: &mut Value, missing: &[Name]) {
    match value {
        Value::Object(fields) => {
            fields.retain(|_, field| !is_missing(field, missing));
            for field in fields.values_mut() {
                leave_out_of_value(field, missing);
            }
        }
        Value::List(items) => {
            for item in items {
                if is_missing(item, missing) {
                    *item = Value::Null;
                } else {
                    leave_out_of_value(item, missing);
                }
            }
        }
        _ => {}
    }
}

fn nulls_in_directives(directives: &mut [Positioned<Directive>], missing: &[Name]) {
    for directive in directives {
        for (_, value) in &mut directive.node.arguments {
            null_where_missing(&mut value.node, missing);
        }
    }
}

fn null_where_missing(value: &mut Value, missing: &[Name]) {
    match value {
        Value::Variable(_) if is_missing(value, missing) => *value = Value::Null,
        Value::Object(fields) => fields
            .values_mut()
            .for_each(|field| null_where_missing(field, missing)),
        Value::List(items) => items
            .iter_mut()
            .for_each(|item| null_where_missing(item, missing)),
        _ => {}
    }
}

fn is_missing(value: &Value, missing: &[Name]) -> bool {
    matches!(value, Value::Variable(name) if missing.contains(name))
}

/// Runs `request` on `schema` with its document from [`prepare`], or answers its refusal.
pub async fn execute(schema: &AppSchema, request: Request) -> Response {
    match prepare(request) {
        Ok(request) => schema.execute(request).await,
        Err(refused) => *refused,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_parses_the_same_from_the_cache() {
        let query = "{ me { id email } }";
        let first = parse(query).unwrap();
        let second = parse(query).unwrap();
        assert_eq!(format!("{first:?}"), format!("{second:?}"));
    }

    #[test]
    fn too_many_aliases_are_refused_every_time() {
        let fields: String = (0..30).map(|n| format!("a{n}: me {{ id }} ")).collect();
        let query = format!("{{ {fields} }}");
        for _ in 0..2 {
            let error = parse(&query).unwrap_err();
            assert!(error.message.contains("Too many aliases"), "{}", error.message);
        }
    }

    #[test]
    fn a_syntax_error_is_the_parsers() {
        assert!(parse("{ me { id }").is_err());
    }
}
