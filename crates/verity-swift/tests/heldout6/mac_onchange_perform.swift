import SwiftUI

struct ExportOptionsView: View {
    @State private var format = "PDF"
    @State private var includeNotes = true
    @State private var previewText = ""

    var body: some View {
        Form {
            Picker("Format", selection: $format) {
                ForEach(["PDF", "PNG", "Markdown"], id: \.self) { Text($0) }
            }
            .pickerStyle(.radioGroup)
            Toggle("Include notes", isOn: $includeNotes)
            Text(previewText).foregroundStyle(.secondary)
        }
        .onChange(of: format) { newValue in
            previewText = "Will export as \(newValue)"
        }
        .padding()
        .frame(width: 320)
    }
}
