import SwiftCompilerPlugin
import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@PublicInit`: see `MemberwiseInit.swift` for what it generates.
public struct PublicInitMacro: MemberMacro {
    public static func expansion(
        of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard declaration.is(StructDeclSyntax.self) || declaration.is(ClassDeclSyntax.self) else {
            throw MacroExpansionErrorMessage("@PublicInit applies to a struct or a class")
        }
        var parameters: [String] = []
        var assignments: [String] = []
        for member in declaration.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self), isStoredInstance(variable) else { continue }
            let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
            for binding in variable.bindings {
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.trimmedDescription else { continue }
                if isLet && binding.initializer != nil { continue }
                guard let type = binding.typeAnnotation?.type.trimmed else {
                    throw MacroExpansionErrorMessage("@PublicInit needs the type of '\(name)' written out")
                }
                let escaping = type.is(FunctionTypeSyntax.self) || type.as(AttributedTypeSyntax.self)?.baseType.is(FunctionTypeSyntax.self) == true
                var parameter = "\(name): \(escaping ? "@escaping " : "")\(type)"
                if let value = binding.initializer?.value.trimmedDescription { parameter += " = \(value)" }
                parameters.append(parameter)
                assignments.append("self.\(name) = \(name)")
            }
        }
        let body = assignments.map { "    " + $0 }.joined(separator: "\n")
        return ["public init(\(raw: parameters.joined(separator: ", "))) {\n\(raw: body)\n}"]
    }

    /// A stored instance property: no accessors other than observers, not static, class or lazy.
    private static func isStoredInstance(_ variable: VariableDeclSyntax) -> Bool {
        let skipped: Set<String> = ["static", "class", "lazy"]
        if variable.modifiers.contains(where: { skipped.contains($0.name.text) }) { return false }
        return variable.bindings.allSatisfy { binding in
            switch binding.accessorBlock?.accessors {
            case nil: return true
            case .getter: return false
            case .accessors(let list):
                return list.allSatisfy { ["willSet", "didSet"].contains($0.accessorSpecifier.text) }
            }
        }
    }
}

@main
struct MemberwiseInitPlugin: CompilerPlugin {
    let providingMacros: [Macro.Type] = [PublicInitMacro.self]
}
